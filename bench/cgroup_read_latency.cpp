// How long one read of a cgroup file takes, as another reader of the node sees it (the kubelet,
// cAdvisor, an operator's cat): the file opened once, then READS preads from offset 0 back to back,
// each timed on the monotonic clock. bench/containers.sh runs it with and without the daemon
// reading the same cgroups, to show whether the daemon's reads hold up anyone else's.
// Prints one logfmt line: reads=N p50_ns= p90_ns= p99_ns= max_ns=.
//
// usage: bench_cgroup_read_latency FILE [--reads N]
#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "bench_util.h"
#include "flightrec/common/fd.h"

namespace {

constexpr long kMaxReads = 10'000'000;

struct Options {
  std::string file;
  long reads = 200'000;
};

Options parse_options(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--reads") {
      if (i + 1 >= argc) throw std::invalid_argument("missing value after --reads");
      char* end = nullptr;
      options.reads = std::strtol(argv[++i], &end, 10);
      if (*end != '\0' || options.reads < 1 || options.reads > kMaxReads) {
        throw std::invalid_argument("--reads must be a whole number 1.." +
                                    std::to_string(kMaxReads) + ", got \"" + argv[i] + "\"");
      }
    } else if (arg.starts_with("--") || !options.file.empty()) {
      throw std::invalid_argument("unexpected argument \"" + std::string(arg) +
                                  "\" (usage: bench_cgroup_read_latency FILE [--reads N])");
    } else {
      options.file = arg;
    }
  }
  if (options.file.empty()) {
    throw std::invalid_argument("usage: bench_cgroup_read_latency FILE [--reads N]");
  }
  return options;
}

int run(const Options& options) {
  const flightrec::Fd fd(::open(options.file.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd.valid()) throw std::runtime_error(options.file + ": " + std::strerror(errno));
  // Larger than any cgroup file the daemon reads whole (v1 memory.stat is ~1.5 KB).
  std::array<char, 16384> buffer{};
  std::vector<double> latencies;
  latencies.reserve(static_cast<size_t>(options.reads));
  for (long i = 0; i < options.reads; ++i) {
    const int64_t start = flightrec::bench::monotonic_ns();
    const ssize_t got = ::pread(fd.get(), buffer.data(), buffer.size(), 0);
    const int64_t end = flightrec::bench::monotonic_ns();
    if (got <= 0) {
      throw std::runtime_error(options.file + ": " +
                               (got == 0 ? std::string("empty") : std::strerror(errno)));
    }
    latencies.push_back(static_cast<double>(end - start));
  }
  const double p50 = flightrec::bench::quantile(latencies, 0.50);
  const double p90 = flightrec::bench::quantile(latencies, 0.90);
  const double p99 = flightrec::bench::quantile(latencies, 0.99);
  std::printf("reads=%ld p50_ns=%.0f p90_ns=%.0f p99_ns=%.0f max_ns=%.0f\n", options.reads, p50,
              p90, p99, latencies.back());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return flightrec::bench::run_reporting_errors("bench_cgroup_read_latency",
                                                [&] { return run(parse_options(argc, argv)); });
}
