#include "flightrec/http/basic_auth.h"

#include <crypt.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <latch>
#include <map>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "base64.h"

using namespace flightrec::http;

namespace {

// A real bcrypt hash of `password`, made by libxcrypt at cost 4 (the cheapest) to keep tests fast.
std::string bcrypt_hash(const std::string& password, int cost = 4) {
  char salt[CRYPT_GENSALT_OUTPUT_SIZE];
  if (crypt_gensalt_rn("$2y$", static_cast<unsigned long>(cost), nullptr, 0, salt,  // NOLINT
                       sizeof salt) == nullptr) {
    throw std::runtime_error("crypt_gensalt_rn failed");
  }
  crypt_data data{};
  const char* hash = crypt_r(password.c_str(), salt, &data);
  if (hash == nullptr || hash[0] == '*') throw std::runtime_error("crypt_r failed");
  return hash;
}

std::string basic(const std::string& user_colon_password) {
  return "Basic " + flightrec::testing::base64(user_colon_password);
}

}  // namespace

TEST_CASE("decode_basic_authorization reads user and password", "[http][auth]") {
  auto credentials = decode_basic_authorization("Basic YWxpY2U6czNjcjN0");  // alice:s3cr3t
  REQUIRE(credentials);
  CHECK(credentials->user == "alice");
  CHECK(credentials->password == "s3cr3t");
  // The scheme is case-insensitive; the password may hold ':' and be empty.
  credentials = decode_basic_authorization(basic("bob:a:b").replace(0, 5, "bAsIc"));
  REQUIRE(credentials);
  CHECK(credentials->user == "bob");
  CHECK(credentials->password == "a:b");
  credentials = decode_basic_authorization(basic("c:"));
  REQUIRE(credentials);
  CHECK(credentials->password.empty());
  CHECK(decode_basic_authorization(basic("ab:c"))->user == "ab");  // one padding '='
}

TEST_CASE("decode_basic_authorization refuses anything malformed", "[http][auth]") {
  for (const std::string header :
       {"", "Basic", "Basic ", "Bearer YWxpY2U6czNjcjN0", "BasicYWxpY2U6czNjcjN0",
        "Basic YWxpY2U6czNjcjN0=", "Basic YWxpY2U6czNjcjN", "Basic YWxp Y2U6czNjcjN0",
        "Basic  YWxpY2U6czNjcjN0", "Basic YW*pY2U6czNjcjN0", "Basic YWxpY2U=" /* no ':' */,
        "Basic QR==" /* non-canonical padding bits */, "Basic =AAA",
        "Basic A===", "Basic YQBiOmM=" /* a NUL in the user */}) {
    INFO(header);
    CHECK_FALSE(decode_basic_authorization(header));
  }
  CHECK_FALSE(decode_basic_authorization("Basic " + std::string(8000, 'A')));
}

TEST_CASE("bcrypt_matches checks a password against crypt(3)", "[http][auth]") {
  crypt_data scratch{};
  const std::string hash = bcrypt_hash("right");
  CHECK(bcrypt_matches("right", hash, scratch));
  CHECK_FALSE(bcrypt_matches("wrong", hash, scratch));
  CHECK_FALSE(bcrypt_matches("", hash, scratch));
  CHECK_FALSE(bcrypt_matches("right", "not a hash", scratch));
  // $2b$ and $2a$ spellings of the same hash verify too (libxcrypt reads all three).
  std::string as_2b = hash;
  as_2b[2] = 'b';
  CHECK(bcrypt_matches("right", as_2b, scratch));
}

TEST_CASE("CredentialCache keeps successes, bounded, oldest out first", "[http][auth]") {
  CredentialCache cache(2);
  cache.insert("alice", "h1", "pw");
  CHECK(cache.contains("alice", "h1", "pw"));
  CHECK_FALSE(cache.contains("alice", "h1", "pW"));
  CHECK_FALSE(cache.contains("alice", "h2", "pw"));  // a changed hash misses
  CHECK_FALSE(cache.contains("alic", "eh1", "pw"));  // fields do not run into each other
  cache.insert("alice", "h1", "pw");                 // again: no second entry
  CHECK(cache.size() == 1);
  cache.insert("bob", "h", "x");
  cache.insert("carol", "h", "y");
  CHECK(cache.size() == 2);
  CHECK_FALSE(cache.contains("alice", "h1", "pw"));
  CHECK(cache.contains("bob", "h", "x"));
  CHECK(cache.contains("carol", "h", "y"));
  CredentialCache none(0);
  none.insert("a", "b", "c");
  CHECK_FALSE(none.contains("a", "b", "c"));
}

TEST_CASE("BasicAuthenticator pays bcrypt once per good password, always for bad ones",
          "[http][auth]") {
  const std::map<std::string, std::string> users{{"alice", bcrypt_hash("s3cr3t")},
                                                 {"bob", bcrypt_hash("hunter2")}};
  BasicAuthenticator auth;
  CHECK(auth.authenticate(users, std::nullopt).user == std::nullopt);
  CHECK(auth.authenticate(users, "Bearer x").user == std::nullopt);
  CHECK(auth.bcrypt_runs() == 0);  // nothing to check: no bcrypt

  CHECK(auth.authenticate(users, basic("alice:s3cr3t")).user == "alice");
  CHECK(auth.bcrypt_runs() == 1);
  for (int i = 0; i < 5; ++i)
    CHECK(auth.authenticate(users, basic("alice:s3cr3t")).user == "alice");
  CHECK(auth.bcrypt_runs() == 1);  // the cache answered

  CHECK(auth.authenticate(users, basic("alice:wrong")).user == std::nullopt);
  CHECK(auth.authenticate(users, basic("alice:wrong")).user == std::nullopt);
  CHECK(auth.bcrypt_runs() == 3);  // failures are never cached

  CHECK(auth.authenticate(users, basic("bob:s3cr3t")).user == std::nullopt);  // alice's password
  CHECK(auth.authenticate(users, basic("mallory:s3cr3t")).user == std::nullopt);
  CHECK(auth.bcrypt_runs() == 5);  // an unknown user costs a bcrypt too

  // A new hash for alice (the config changed): the old password no longer passes from cache.
  const std::map<std::string, std::string> changed{{"alice", bcrypt_hash("n3w")}};
  CHECK(auth.authenticate(changed, basic("alice:s3cr3t")).user == std::nullopt);
  CHECK(auth.authenticate(changed, basic("alice:n3w")).user == "alice");
}

TEST_CASE("BasicAuthenticator says why it found no user", "[http][auth]") {
  const std::map<std::string, std::string> users{{"alice", bcrypt_hash("s3cr3t")}};
  BasicAuthenticator auth;
  CHECK(auth.authenticate(users, std::nullopt).failure == AuthFailure::missing_credentials);
  CHECK(auth.authenticate(users, "Bearer x").failure == AuthFailure::malformed_credentials);
  CHECK(auth.authenticate(users, "Basic !!").failure == AuthFailure::malformed_credentials);
  CHECK(auth.authenticate(users, basic("mallory:s3cr3t")).failure == AuthFailure::unknown_user);
  CHECK(auth.authenticate(users, basic("alice:wrong")).failure == AuthFailure::wrong_password);
  const Authentication passed = auth.authenticate(users, basic("alice:s3cr3t"));
  CHECK(passed.user == "alice");
  CHECK_FALSE(passed.failure);
}

TEST_CASE("A client's password checks beyond the first waiting for bcrypt are throttled at once",
          "[http][auth]") {
  // Cost 10, tens of milliseconds a check: the checks of one burst overlap, as a flood's do.
  const std::map<std::string, std::string> users{{"alice", bcrypt_hash("s3cr3t", 10)}};
  BasicAuthenticator auth;
  REQUIRE(auth.authenticate(users, basic("alice:s3cr3t"), "10.0.0.9").user == "alice");  // cached
  constexpr int kFlood = 12;
  std::latch start(kFlood + 2);
  std::atomic<int> throttled{0};
  std::vector<std::thread> clients;
  for (int i = 0; i < kFlood; ++i) {
    clients.emplace_back([&] {
      start.arrive_and_wait();
      if (auth.authenticate(users, basic("alice:wrong"), "10.0.0.66").failure ==
          AuthFailure::throttled) {
        ++throttled;
      }
    });
  }
  // Another client's first check, not cached: the flood's one place leaves it one of its own.
  Authentication newcomer;
  clients.emplace_back([&] {
    start.arrive_and_wait();
    std::this_thread::sleep_for(std::chrono::milliseconds(5));  // the flood is waiting by now
    newcomer = auth.authenticate(users, basic("bob:wrong"), "10.0.0.7");
  });
  start.arrive_and_wait();
  // A password the cache knows is answered while the others wait: never throttled.
  const Authentication cached = auth.authenticate(users, basic("alice:s3cr3t"), "10.0.0.66");
  for (auto& client : clients) client.join();
  CHECK(cached.user == "alice");
  CHECK_FALSE(cached.failure);
  CHECK(newcomer.failure != AuthFailure::throttled);
  // One of the flood's checks waits at a time; a few more may get in as earlier ones finish.
  CHECK(throttled >= kFlood - 4);
  CHECK(auth.bcrypt_runs() == static_cast<uint64_t>(1 + kFlood - throttled + 1));
}

TEST_CASE("Beyond kMostWaiting password checks in all, more are throttled at once",
          "[http][auth]") {
  const std::map<std::string, std::string> users{{"alice", bcrypt_hash("s3cr3t", 10)}};
  BasicAuthenticator auth;
  constexpr int kClients = 24;  // each from its own address
  std::latch start(kClients);
  std::atomic<int> throttled{0};
  std::vector<std::thread> clients;
  for (int i = 0; i < kClients; ++i) {
    clients.emplace_back([&, i] {
      start.arrive_and_wait();
      const std::string address = "10.0.1." + std::to_string(i);
      if (auth.authenticate(users, basic("alice:wrong"), address).failure ==
          AuthFailure::throttled) {
        ++throttled;
      }
    });
  }
  for (auto& client : clients) client.join();
  CHECK(throttled >= kClients - 2 * BasicAuthenticator::kMostWaiting);
  CHECK(auth.bcrypt_runs() == static_cast<uint64_t>(kClients - throttled));
}
