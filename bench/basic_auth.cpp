// The cost of basic authentication per request, with and without the credential cache, in one
// run: the same authenticator code, a cost-10 bcrypt hash (htpasswd -B's and exporter-toolkit's
// usual cost), N requests with the right password. Without the cache every request pays bcrypt;
// with it only the first does (docs/PERFORMANCE.md "Basic authentication").
// usage: bench_basic_auth [requests=20] [cost=10]
#include "flightrec/http/basic_auth.h"

#include <crypt.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <stdexcept>
#include <string>

#include "bench_util.h"

using namespace flightrec;

namespace {

std::string bcrypt_hash(const std::string& password, unsigned long cost) {  // NOLINT: crypt's type
  char salt[CRYPT_GENSALT_OUTPUT_SIZE];
  crypt_data data{};
  if (crypt_gensalt_rn("$2y$", cost, nullptr, 0, salt, sizeof salt) == nullptr) {
    throw std::runtime_error("crypt_gensalt_rn failed");
  }
  const char* hash = crypt_r(password.c_str(), salt, &data);
  if (hash == nullptr || hash[0] == '*') throw std::runtime_error("crypt_r failed");
  return hash;
}

// CPU µs per authenticate() over `requests` calls.
double cpu_us_per_request(http::BasicAuthenticator& auth,
                          const std::map<std::string, std::string>& users, int requests) {
  const int64_t begin = bench::thread_cpu_ns();
  for (int i = 0; i < requests; ++i) {
    // "prometheus:s3cr3t"
    if (!auth.authenticate(users, "Basic cHJvbWV0aGV1czpzM2NyM3Q=").user) {
      throw std::runtime_error("the right password was refused");
    }
  }
  return static_cast<double>(bench::thread_cpu_ns() - begin) / 1e3 / requests;
}

}  // namespace

int main(int argc, char** argv) {
  return bench::run_reporting_errors("bench_basic_auth", [&] {
    const int requests = argc > 1 ? std::atoi(argv[1]) : 20;
    const unsigned long cost = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 10;  // NOLINT
    if (requests < 1 || cost < 4 || cost > 31) throw std::invalid_argument("bad arguments");
    const std::map<std::string, std::string> users{{"prometheus", bcrypt_hash("s3cr3t", cost)}};

    http::BasicAuthenticator uncached(0);  // a cache of no entries: bcrypt every time
    http::BasicAuthenticator cached;
    const double without = cpu_us_per_request(uncached, users, requests);
    // Many more cached requests, so the one bcrypt of the first is a small share of them; the
    // figure reported is the steady state after it.
    static_cast<void>(cached.authenticate(users, "Basic cHJvbWV0aGV1czpzM2NyM3Q="));
    const double with = cpu_us_per_request(cached, users, requests * 1000);
    std::printf("basic auth, bcrypt cost %lu, %d requests with the right password:\n", cost,
                requests);
    std::printf("  without cache: %10.1f us CPU per request (%llu bcrypt runs)\n", without,
                static_cast<unsigned long long>(uncached.bcrypt_runs()));
    std::printf("  with cache:    %10.2f us CPU per request (%llu bcrypt run)\n", with,
                static_cast<unsigned long long>(cached.bcrypt_runs()));
    std::printf("  ratio without/with: %.0fx\n", without / with);
    return 0;
  });
}
