// The sampler's CPU tick from user space vs taken in the kernel (sampler::make_kernel_ticks), in
// one run: rounds alternate between
//   floor   a bare timerfd loop at 4 ms that reads nothing;
//   procfs  the same loop reading and parsing /proc/stat and the root cgroup's cpu.stat at each
//           tick (what the kernel tick replaces);
//   kernel  the BPF program on a 4 ms kernel timer, drained by a timerfd loop every 8 ms.
// Each mode's cost is the process's CPU time, plus for `kernel` the BPF program's own run time
// (the kernel's BPF statistics, switched on for the run), and the whole machine's busy time from
// /proc/stat, which also catches what neither counts (the timer interrupt around the program) but
// moves with everything else running here. Needs root for the kernel mode.
#include <sys/resource.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "bench_util.h"
#include "flightrec/common/fd.h"
#include "flightrec/ebpf/bpf_run_stats.h"
#include "flightrec/sampler/ebpf_kernel_ticks.h"
#include "flightrec/sampler/file_reader.h"
#include "flightrec/sampler/sources/stat.h"

using namespace flightrec;
using namespace std::chrono_literals;

namespace {

constexpr auto kTick = 4ms;
constexpr auto kDrainEvery = 8ms;

int64_t process_cpu_ns() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const auto ns = [](const timeval& t) {
    return static_cast<int64_t>(t.tv_sec) * 1'000'000'000 + static_cast<int64_t>(t.tv_usec) * 1000;
  };
  return ns(usage.ru_utime) + ns(usage.ru_stime);
}

// Non-idle time of all CPUs together, from /proc/stat's aggregate line (USER_HZ steps).
int64_t machine_busy_ns() {
  const std::string text = sampler::read_file("/proc/stat");
  const sampler::StatLayout layout = sampler::parse_stat_layout(text);
  std::vector<int64_t> values(sampler::stat_value_count(layout));
  if (sampler::parse_stat(text, layout, values) != sampler::SampleStatus::ok) {
    throw std::runtime_error("cannot parse /proc/stat");
  }
  int64_t busy = 0;
  for (size_t mode = 0; mode < sampler::kStatFirstGuestMode; ++mode) {
    if (mode != 3 && mode != 4) busy += values[mode];  // not idle, not iowait
  }
  return busy * (1'000'000'000 / sysconf(_SC_CLK_TCK));
}

// Runs `on_expiry` at each expiry of a timerfd of `interval` for `duration`.
template <typename OnExpiry>
void timer_loop(std::chrono::nanoseconds interval, std::chrono::nanoseconds duration,
                OnExpiry&& on_expiry) {
  const Fd timer(timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC));
  if (!timer) throw std::runtime_error(std::string("timerfd_create: ") + std::strerror(errno));
  itimerspec spec{};
  spec.it_interval.tv_nsec = interval.count();
  spec.it_value.tv_nsec = interval.count();
  timerfd_settime(timer.get(), 0, &spec, nullptr);
  const int64_t until = bench::monotonic_ns() + duration.count();
  while (bench::monotonic_ns() < until) {
    uint64_t expirations = 0;
    if (read(timer.get(), &expirations, sizeof expirations) == sizeof expirations) on_expiry();
  }
}

struct Cost {
  double process_pct = 0;  // % of one core
  double bpf_pct = 0;
  double machine_pct = 0;
  double bpf_ns_per_run = 0;
};

struct Round {
  int64_t process = 0;
  int64_t machine = 0;
  int64_t wall = 0;
  void begin() {
    process = process_cpu_ns();
    machine = machine_busy_ns();
    wall = bench::monotonic_ns();
  }
  Cost end() const {
    const auto wall_ns = static_cast<double>(bench::monotonic_ns() - wall);
    Cost cost;
    cost.process_pct = 100.0 * static_cast<double>(process_cpu_ns() - process) / wall_ns;
    cost.machine_pct = 100.0 * static_cast<double>(machine_busy_ns() - machine) / wall_ns;
    return cost;
  }
};

Cost floor_round(std::chrono::nanoseconds duration) {
  Round round;
  round.begin();
  timer_loop(kTick, duration, [] {});
  return round.end();
}

Cost procfs_round(std::chrono::nanoseconds duration) {
  sampler::FileReader stat("/proc/stat");
  std::unique_ptr<sampler::FileReader> cgroup;
  if (std::filesystem::exists("/sys/fs/cgroup/cpu.stat")) {
    cgroup = std::make_unique<sampler::FileReader>("/sys/fs/cgroup/cpu.stat");
  }
  std::string_view text;
  if (!stat.read(text)) throw std::runtime_error("cannot read /proc/stat");
  const sampler::StatLayout layout = sampler::parse_stat_layout(text);
  std::vector<int64_t> values(sampler::stat_value_count(layout));
  Round round;
  round.begin();
  timer_loop(kTick, duration, [&] {
    std::string_view bytes;
    if (stat.read(bytes)) static_cast<void>(sampler::parse_stat(bytes, layout, values));
    if (cgroup != nullptr) static_cast<void>(cgroup->read(bytes));
  });
  return round.end();
}

Cost kernel_round(std::chrono::nanoseconds duration, size_t& ticks_seen) {
  auto made = sampler::make_kernel_ticks(kTick, "/proc");
  if (!made) throw std::runtime_error("the kernel tick did not start: " + made.error());
  const auto ticks = *std::move(made);
  const ebpf::OwnBpfPrograms programs("/proc/self/fd", ebpf::read_bpf_program);
  const auto bpf_before = programs.read();
  sampler::KernelTickBatch batch;
  ticks->drain(batch);
  Round round;
  round.begin();
  timer_loop(kDrainEvery, duration, [&] {
    ticks->drain(batch);
    ticks_seen += batch.heads.size();
  });
  Cost cost = round.end();
  const auto bpf_after = programs.read();
  if (bpf_before.size() == 1 && bpf_after.size() == 1) {
    const uint64_t runs = bpf_after[0].run_count - bpf_before[0].run_count;
    const auto ns = static_cast<double>(bpf_after[0].run_time_ns - bpf_before[0].run_time_ns);
    cost.bpf_pct = 100.0 * ns / static_cast<double>(duration.count());
    cost.bpf_ns_per_run = runs > 0 ? ns / static_cast<double>(runs) : 0;
  }
  return cost;
}

double median(std::vector<Cost>& costs, double Cost::*field) {
  std::vector<double> values;
  for (const Cost& cost : costs) values.push_back(cost.*field);
  return bench::quantile(values, 0.5);
}

void print_row(const char* name, std::vector<Cost>& costs) {
  std::printf("%-8s process %6.3f %%  bpf %6.3f %% (%5.0f ns/run)  machine busy %6.2f %%\n", name,
              median(costs, &Cost::process_pct), median(costs, &Cost::bpf_pct),
              median(costs, &Cost::bpf_ns_per_run), median(costs, &Cost::machine_pct));
}

int run(int argc, char** argv) {
  int rounds = 5;
  double seconds = 4;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--rounds") {
      rounds = std::stoi(argv[i + 1]);
    } else if (flag == "--seconds") {
      seconds = std::stod(argv[i + 1]);
    } else {
      throw std::runtime_error("unknown flag " + flag + " (--rounds N, --seconds S)");
    }
  }
  const ebpf::BpfStatsSwitch stats;
  if (!stats.on()) std::printf("BPF run statistics off: %s\n", stats.why_not().c_str());
  const auto duration =
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::duration<double>(seconds));
  std::vector<Cost> floor;
  std::vector<Cost> procfs;
  std::vector<Cost> kernel;
  size_t ticks_seen = 0;
  for (int r = 0; r < rounds; ++r) {
    floor.push_back(floor_round(duration));
    procfs.push_back(procfs_round(duration));
    kernel.push_back(kernel_round(duration, ticks_seen));
  }
  std::printf(
      "%d rounds of %.1f s per mode, medians, %% of one core (machine: all CPUs' busy "
      "time, everything running here included):\n",
      rounds, seconds);
  print_row("floor", floor);
  print_row("procfs", procfs);
  print_row("kernel", kernel);
  const double user_space = median(procfs, &Cost::process_pct);
  const double in_kernel = median(kernel, &Cost::process_pct) + median(kernel, &Cost::bpf_pct);
  std::printf(
      "kernel (process + bpf) / procfs process: %.2f; kernel ticks drained per second: %.1f\n",
      in_kernel / user_space, static_cast<double>(ticks_seen) / (rounds * seconds));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return bench::run_reporting_errors("bench_kernel_ticks", [&] { return run(argc, argv); });
}
