// What the throttle recorder's BPF program (container/bpf/cfs_throttle.bpf.c, on every context
// switch) costs, in one run: two threads pinned to CPU 0 hand a byte back and forth through pipes,
// two context switches per round trip, in rounds that alternate between
//   off        no program loaded: the floor;
//   idle       the program loaded, nothing throttled (its cost on almost every host, almost
//   always); throttled  the program loaded and a burner pinned to CPU 0 in a cgroup of 20 ms per
//   100 ms, so
//              CPU 0 has a throttled queue open 80 % of the time and every switch looks at it.
// Reports each mode's wall time per round trip and, from the kernel's BPF statistics (switched on
// for the run), the program's ns per run. Needs root for all but `off`.
#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#include <cstdio>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "bench_util.h"
#include "flightrec/common/fd.h"
#include "flightrec/container/throttle/episode_recorder.h"
#include "flightrec/ebpf/bpf_run_stats.h"
#include "quota_cgroup.h"

using namespace flightrec;

namespace {

void pin_to_cpu0() {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(0, &set);
  if (pthread_setaffinity_np(pthread_self(), sizeof(set), &set) != 0) {
    throw std::runtime_error("cannot pin a thread to CPU 0");
  }
}

// Wall ns per round trip of `round_trips` byte exchanges between two threads on CPU 0.
double ping_pong(int round_trips) {
  int there[2];
  int back[2];
  if (pipe(there) != 0 || pipe(back) != 0) throw std::runtime_error("pipe failed");
  const Fd there_read(there[0]), there_write(there[1]), back_read(back[0]), back_write(back[1]);
  std::thread echo([&] {
    pin_to_cpu0();
    char byte = 0;
    for (int i = 0; i < round_trips; ++i) {
      if (read(there_read.get(), &byte, 1) != 1 || write(back_write.get(), &byte, 1) != 1) return;
    }
  });
  pin_to_cpu0();
  const int64_t start = bench::monotonic_ns();
  char byte = 'x';
  for (int i = 0; i < round_trips; ++i) {
    if (write(there_write.get(), &byte, 1) != 1 || read(back_read.get(), &byte, 1) != 1) break;
  }
  const int64_t elapsed = bench::monotonic_ns() - start;
  echo.join();
  return static_cast<double>(elapsed) / round_trips;
}

struct Sample {
  double round_trip_ns = 0;
  double bpf_ns_per_run = 0;
  double runs_per_round_trip = 0;
};

std::optional<ebpf::BpfProgramRun> program_run(const ebpf::OwnBpfPrograms& programs) {
  for (const auto& program : programs.read()) {
    if (program.name == "throttle_switch") return program;
  }
  return std::nullopt;
}

Sample measured_round(int round_trips, bool throttled,
                      const std::optional<testing::CpuHierarchy>& hierarchy) {
  auto recorder = container::make_episode_recorder();
  if (!recorder) throw std::runtime_error(recorder.error());
  std::unique_ptr<testing::QuotaCgroup> cgroup;
  if (throttled) {
    if (!hierarchy) throw std::runtime_error("no cgroup hierarchy with the cpu controller");
    cgroup = std::make_unique<testing::QuotaCgroup>(*hierarchy, "bench", 20'000, 100'000);
    if (!cgroup->start_burner(1, 3'600'000'000'000, nullptr, 0)) {
      throw std::runtime_error("cannot start the burner: " + cgroup->error());
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(300));  // let it be throttled
  }
  const ebpf::OwnBpfPrograms programs("/proc/self/fd", ebpf::read_bpf_program);
  const auto before = program_run(programs);
  Sample sample;
  sample.round_trip_ns = ping_pong(round_trips);
  const auto after = program_run(programs);
  if (before && after && after->run_count > before->run_count) {
    const auto runs = static_cast<double>(after->run_count - before->run_count);
    sample.bpf_ns_per_run = static_cast<double>(after->run_time_ns - before->run_time_ns) / runs;
    sample.runs_per_round_trip = runs / round_trips;
  }
  std::vector<container::ThrottleEpisode> episodes;
  (*recorder)->drain(episodes);
  return sample;
}

double median(std::vector<Sample>& samples, double Sample::*field) {
  std::vector<double> values;
  values.reserve(samples.size());
  for (const Sample& sample : samples) values.push_back(sample.*field);
  return bench::quantile(values, 0.5);
}

int run(int argc, char** argv) {
  int rounds = 5;
  int round_trips = 100'000;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--rounds") {
      rounds = std::stoi(argv[i + 1]);
    } else if (flag == "--round-trips") {
      round_trips = std::stoi(argv[i + 1]);
    } else {
      throw std::runtime_error("unknown flag " + flag + " (--rounds N, --round-trips N)");
    }
  }
  const ebpf::BpfStatsSwitch stats;
  if (!stats.on()) std::printf("BPF run statistics off: %s\n", stats.why_not().c_str());
  const auto hierarchy = testing::find_cpu_hierarchy();
  std::vector<Sample> off, idle, throttled;
  for (int r = 0; r < rounds; ++r) {
    off.push_back({.round_trip_ns = ping_pong(round_trips)});
    idle.push_back(measured_round(round_trips, false, hierarchy));
    throttled.push_back(measured_round(round_trips, true, hierarchy));
  }
  std::printf("%d rounds of %d round trips (2 context switches each) on CPU 0, medians:\n", rounds,
              round_trips);
  std::printf("%-10s %7.0f ns per round trip\n", "off", median(off, &Sample::round_trip_ns));
  for (auto [name, samples] : {std::pair{"idle", &idle}, std::pair{"throttled", &throttled}}) {
    std::printf(
        "%-10s %7.0f ns per round trip, program %4.0f ns per run, %.2f runs per round trip\n", name,
        median(*samples, &Sample::round_trip_ns), median(*samples, &Sample::bpf_ns_per_run),
        median(*samples, &Sample::runs_per_round_trip));
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return bench::run_reporting_errors("bench_throttle_switch_cost", [&] { return run(argc, argv); });
}
