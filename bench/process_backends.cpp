// The process tier's two backends in one run: N real idle processes (children asleep in pause()),
// then rounds that alternate the /proc reader (ProcessSampler) and the BPF task iterator
// (TaskCounterSampler), each for a number of ticks, as the daemon runs them. The figure is the
// reading thread's CPU per tick (CLOCK_THREAD_CPUTIME_ID: the kernel's work inside read() and
// pread() is charged to that thread, the BPF program's run included), shown as µs per process
// and as % of one core at the default 250 ms process tick. The eBPF half needs root.
//
// usage: bench_process_backends [--processes N] [--rounds R] [--ticks T]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "bench_util.h"
#include "default_config.h"
#include "flightrec/config/config.h"
#include "flightrec/process/process_sampler.h"
#include "flightrec/process/task_counter_sampler.h"
#include "flightrec/process/task_iterator.h"
#include "idle_children.h"

using namespace flightrec;
using process::ProcessFrame;
using process::ProcessSamplerOptions;
using process::ProcessSource;

namespace {

constexpr long kMaxProcesses = 20000;
constexpr double kTicksPerSecond = 4;  // sampler.process_rate 250 ms

struct Options {
  long processes = 2000;
  int rounds = 11;
  int ticks = 8;
};

Options parse_options(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string_view flag = argv[i];
    if (i + 1 >= argc) throw std::invalid_argument("missing value after " + std::string(flag));
    const long value = std::strtol(argv[++i], nullptr, 10);
    if (flag == "--processes") {
      options.processes = value;
    } else if (flag == "--rounds") {
      options.rounds = static_cast<int>(value);
    } else if (flag == "--ticks") {
      options.ticks = static_cast<int>(value);
    } else {
      throw std::invalid_argument("unknown flag " + std::string(flag));
    }
  }
  if (options.processes < 1 || options.processes > kMaxProcesses) {
    throw std::invalid_argument("--processes must be 1.." + std::to_string(kMaxProcesses));
  }
  if (options.rounds < 1 || options.ticks < 1) {
    throw std::invalid_argument("--rounds and --ticks must be at least 1");
  }
  return options;
}

struct Backend {
  std::unique_ptr<ProcessSource> source;
  ProcessFrame frame;
  std::vector<double> tick_ns;  // median-able CPU per tick, one per round

  void round(int ticks) {
    const int64_t start = bench::thread_cpu_ns();
    for (int i = 0; i < ticks; ++i) source->sample(frame);
    tick_ns.push_back(static_cast<double>(bench::thread_cpu_ns() - start) / ticks);
  }
};

size_t children_in(const ProcessFrame& frame, const std::vector<pid_t>& sorted_children) {
  return static_cast<size_t>(
      std::count_if(frame.processes.begin(), frame.processes.end(), [&](const auto& row) {
        return !row.exited &&
               std::binary_search(sorted_children.begin(), sorted_children.end(), row.pid);
      }));
}

// Returns the median CPU per tick in ns.
double report(Backend& backend, const std::vector<pid_t>& children) {
  const double tick = bench::quantile(backend.tick_ns, 0.5);
  const double p90 = bench::quantile(backend.tick_ns, 0.9);
  const auto rows = static_cast<double>(backend.frame.processes.size());
  const auto& stats = backend.source->stats();
  std::printf(
      "%-7s %6zu rows (%zu children): %8.0f us CPU per tick (p90 %.0f), %5.2f us per process, "
      "%5.2f %% of a core at 250 ms; read errors %lu\n",
      std::string(backend.source->backend()).c_str(), backend.frame.processes.size(),
      children_in(backend.frame, children), tick / 1000, p90 / 1000, tick / 1000 / rows,
      tick * kTicksPerSecond / 1e9 * 100, static_cast<unsigned long>(stats.read_errors_total));
  if (!stats.last_error.empty()) std::printf("        last error: %s\n", stats.last_error.c_str());
  return tick;
}

int run(const Options& options) {
  if (!bench::process_limits_allow(options.processes)) return 2;
  const bench::IdleChildren children(options.processes);
  std::vector<pid_t> sorted = children.pids();
  std::sort(sorted.begin(), sorted.end());

  ProcessSamplerOptions sampler_options;
  sampler_options.redact_cmdline = bench::default_config().processes.redact_cmdline;
  sampler_options.max_count = static_cast<uint32_t>(options.processes) + 8192;
  std::vector<Backend> backends;
  backends.push_back(
      {std::make_unique<process::ProcessSampler>(sampler::ProcRoot{}, sampler_options)});
  if (auto reader = process::make_task_iterator()) {
    backends.push_back({std::make_unique<process::TaskCounterSampler>(
        sampler::ProcRoot{}, sampler_options, *std::move(reader), "ebpf")});
  } else {
    std::printf("ebpf backend unavailable: %s\n", reader.error().c_str());
  }
  for (Backend& backend : backends) {  // first sight: identity reads, fds opened
    backend.source->sample(backend.frame);
    backend.source->sample(backend.frame);
  }
  for (int round = 0; round < options.rounds; ++round) {
    for (Backend& backend : backends) backend.round(options.ticks);
  }
  std::printf("%ld idle children, %d rounds of %d ticks per backend, alternating\n",
              options.processes, options.rounds, options.ticks);
  std::vector<double> ticks;
  for (Backend& backend : backends) ticks.push_back(report(backend, sorted));
  if (ticks.size() == 2) std::printf("procfs / ebpf CPU per tick: %.1fx\n", ticks[0] / ticks[1]);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return flightrec::bench::run_reporting_errors("bench_process_backends",
                                                [&] { return run(parse_options(argc, argv)); });
}
