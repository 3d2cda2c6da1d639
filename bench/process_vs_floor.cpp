// Process tier CPU per process vs the raw floor. Spawns N children that sleep in pause(), then in
// one run alternates (a) ProcessSampler::sample over every process on the host and (b) a bare pread
// loop over the same processes' stat and io through fds opened beforehand, the least any process
// tier must do. The ratio of the medians is the figure (target <= 1.3).
//
// usage: bench_process_vs_floor [--processes N] [--rounds R] [--check RATIO]
// --check exits 1 when the ratio exceeds RATIO or fewer than N children appear in the frame.
// The children are killed and reaped on every exit path; they also die with this process
// (PR_SET_PDEATHSIG) if it is killed.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "bench_util.h"
#include "default_config.h"
#include "flightrec/common/fd.h"
#include "flightrec/config/config.h"
#include "flightrec/process/pid_lister.h"
#include "flightrec/process/process_sampler.h"
#include "idle_children.h"

using namespace flightrec;
using process::ProcessFrame;
using process::ProcessSampler;
using process::ProcessSamplerOptions;

namespace {

constexpr long kMaxProcesses = 20000;

struct Options {
  long processes = 2000;
  int rounds = 15;
  double check_ratio = 0;  // 0: report only
};

Options parse_options(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string_view flag = argv[i];
    if (i + 1 >= argc) throw std::invalid_argument("missing value after " + std::string(flag));
    const char* value = argv[++i];
    if (flag == "--processes") {
      options.processes = std::strtol(value, nullptr, 10);
    } else if (flag == "--rounds") {
      options.rounds = std::atoi(value);
    } else if (flag == "--check") {
      options.check_ratio = std::strtod(value, nullptr);
    } else {
      throw std::invalid_argument("unknown flag " + std::string(flag));
    }
  }
  if (options.processes < 1 || options.processes > kMaxProcesses) {
    throw std::invalid_argument("--processes must be 1.." + std::to_string(kMaxProcesses));
  }
  if (options.rounds < 1) throw std::invalid_argument("--rounds must be at least 1");
  return options;
}

// The floor: stat and io of the same processes, opened once, one pread each per tick.
class Floor {
 public:
  explicit Floor(const ProcessFrame& frame) : buffer_(4096) {
    for (const auto& row : frame.processes) {
      if (row.exited) continue;
      const std::string dir = "/proc/" + std::to_string(row.pid) + "/";
      Fd stat(::open((dir + "stat").c_str(), O_RDONLY | O_CLOEXEC));
      if (!stat) continue;
      fds_.push_back(std::move(stat));
      ++processes_;
      Fd io(::open((dir + "io").c_str(), O_RDONLY | O_CLOEXEC));
      if (io) fds_.push_back(std::move(io));
    }
  }

  void tick() {
    for (const Fd& fd : fds_) {
      if (::pread(fd.get(), buffer_.data(), buffer_.size(), 0) < 0) ++errors_;
    }
  }

  [[nodiscard]] size_t processes() const { return processes_; }
  [[nodiscard]] size_t files() const { return fds_.size(); }

 private:
  std::vector<Fd> fds_;
  std::vector<char> buffer_;
  size_t processes_ = 0;
  size_t errors_ = 0;
};

template <typename Body>
double cpu_ns(Body&& body) {
  const int64_t start = bench::thread_cpu_ns();
  body();
  return static_cast<double>(bench::thread_cpu_ns() - start);
}

size_t children_in(const ProcessFrame& frame, const std::vector<pid_t>& children) {
  size_t found = 0;
  for (const auto& row : frame.processes) {
    if (!row.exited && std::binary_search(children.begin(), children.end(), row.pid)) ++found;
  }
  return found;
}

// Medians over the rounds, in µs of CPU per process.
struct Medians {
  double ours = 0;            // the sampler as the daemon runs it
  double always_listing = 0;  // the sampler forced to list /proc every tick
  double fresh = 0;           // the same, into a new frame each tick
  double floor = 0;           // raw preads of the same files
  double listing = 0;         // listing /proc alone
  uint64_t skipped = 0;       // ticks on which the sampler skipped the listing
};

Medians measure(const Options& options, ProcessSamplerOptions sampler_options,
                ProcessSampler& process_sampler, ProcessFrame& frame) {
  // The same sampler forced to list /proc every tick: a host where processes start all the time.
  sampler_options.always_list = true;
  ProcessSampler listing_sampler(sampler::ProcRoot{}, sampler_options);
  ProcessFrame listing_frame;
  for (int warm = 0; warm < 2; ++warm) {  // first sight opens and reads everything once
    process_sampler.sample(frame);
    listing_sampler.sample(listing_frame);
  }
  Floor floor(frame);
  // Listing /proc is work the floor does not do but a process tier must (new PIDs): shown apart.
  process::PidLister lister("/proc");
  std::vector<int32_t> pids;

  const uint64_t skipped_before = process_sampler.stats().listings_skipped_total;
  std::vector<double> ours, always_listing, fresh, bare, listing;
  for (int round = 0; round < options.rounds; ++round) {
    bare.push_back(cpu_ns([&] { floor.tick(); }) / static_cast<double>(floor.processes()));
    listing.push_back(cpu_ns([&] { static_cast<void>(lister.list(pids)); }) /
                      static_cast<double>(pids.size()));
    ours.push_back(cpu_ns([&] { process_sampler.sample(frame); }) /
                   static_cast<double>(frame.processes.size()));
    always_listing.push_back(cpu_ns([&] { listing_sampler.sample(listing_frame); }) /
                             static_cast<double>(listing_frame.processes.size()));
    ProcessFrame new_frame;
    fresh.push_back(cpu_ns([&] { listing_sampler.sample(new_frame); }) /
                    static_cast<double>(new_frame.processes.size()));
  }
  std::printf("raw floor (pread of stat+io, %zu files of %zu processes)\n", floor.files(),
              floor.processes());
  return {.ours = bench::quantile(ours, 0.5) / 1000,
          .always_listing = bench::quantile(always_listing, 0.5) / 1000,
          .fresh = bench::quantile(fresh, 0.5) / 1000,
          .floor = bench::quantile(bare, 0.5) / 1000,
          .listing = bench::quantile(listing, 0.5) / 1000,
          .skipped = process_sampler.stats().listings_skipped_total - skipped_before};
}

void report(const Options& options, const Medians& m, const ProcessFrame& frame, size_t seen,
            const ProcessSampler& process_sampler) {
  std::printf("%ld children, %zu processes in the frame (%zu children seen), %d rounds\n",
              options.processes, frame.processes.size(), seen, options.rounds);
  std::printf(
      "sampler as the daemon runs it: %.2f us CPU per process (%.1f ms per tick); "
      "/proc listed on %d of %d ticks (a PID was allocated)\n",
      m.ours, m.ours * static_cast<double>(frame.processes.size()) / 1000,
      options.rounds - static_cast<int>(m.skipped), options.rounds);
  std::printf("sampler listing /proc every tick: %.2f us per process (new frame each tick: %.2f)\n",
              m.always_listing, m.fresh);
  std::printf("raw floor: %.2f us per process\n", m.floor);
  std::printf("listing /proc alone (getdents64): %.2f us per process\n", m.listing);
  std::printf("ratio sampler/floor: %.2f (target <= 1.3); listing every tick: %.2f\n",
              m.ours / m.floor, m.always_listing / m.floor);
  const auto& stats = process_sampler.stats();
  std::printf("held %u, fd fallbacks %u, read errors %lu\n", stats.held, stats.fd_fallbacks,
              static_cast<unsigned long>(stats.read_errors_total));
  if (!stats.last_error.empty()) std::printf("last error: %s\n", stats.last_error.c_str());
}

int run(const Options& options) {
  if (!bench::process_limits_allow(options.processes)) return 2;
  const bench::IdleChildren children(options.processes);
  std::vector<pid_t> sorted = children.pids();
  std::sort(sorted.begin(), sorted.end());

  ProcessSamplerOptions sampler_options;
  sampler_options.redact_cmdline = bench::default_config().processes.redact_cmdline;
  sampler_options.max_count = static_cast<uint32_t>(options.processes) + 8192;
  ProcessSampler process_sampler(sampler::ProcRoot{}, sampler_options);
  ProcessFrame frame;
  const Medians medians = measure(options, sampler_options, process_sampler, frame);
  const size_t seen = children_in(frame, sorted);
  report(options, medians, frame, seen, process_sampler);

  if (options.check_ratio > 0) {
    if (seen < static_cast<size_t>(options.processes)) {
      std::fprintf(stderr, "FAIL: only %zu of %ld children in the frame\n", seen,
                   options.processes);
      return 1;
    }
    if (medians.ours / medians.floor > options.check_ratio) {
      std::fprintf(stderr, "FAIL: ratio %.2f exceeds %.2f\n", medians.ours / medians.floor,
                   options.check_ratio);
      return 1;
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return flightrec::bench::run_reporting_errors("bench_process_vs_floor",
                                                [&] { return run(parse_options(argc, argv)); });
}
