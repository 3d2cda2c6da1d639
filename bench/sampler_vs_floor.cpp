// Sampler CPU per tick vs the raw floor: a bare pread loop over the same files, kept open, into
// reused buffers. Rounds alternate between the two so machine noise hits both alike; the ratio of
// the medians is the figure. A second part runs both at the real 1 ms timer for a few seconds and
// compares the sampler's tick lateness with a bare timerfd loop's.
#include <sys/timerfd.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "bench_util.h"
#include "flightrec/common/fd.h"
#include "flightrec/config/config.h"
#include "flightrec/sampler/file_reader.h"
#include "flightrec/sampler/sampler.h"
#include "flightrec/sampler/sources/system_sources.h"

using namespace flightrec;

namespace {

// The files the default sources read, where this host has them.
std::vector<std::unique_ptr<sampler::FileReader>> floor_readers() {
  const char* candidates[] = {"/proc/stat",
                              "/proc/meminfo",
                              "/proc/loadavg",
                              "/proc/pressure/cpu",
                              "/proc/pressure/memory",
                              "/proc/pressure/io",
                              "/proc/vmstat",
                              "/proc/diskstats",
                              "/proc/net/dev",
                              "/sys/fs/cgroup/cpu.stat",
                              "/sys/fs/cgroup/unified/cpu.stat"};
  std::vector<std::unique_ptr<sampler::FileReader>> readers;
  for (const char* path : candidates) {
    if (std::filesystem::exists(path))
      readers.push_back(std::make_unique<sampler::FileReader>(path));
  }
  return readers;
}

// Per-tick CPU ns of `body` over `ticks` calls.
template <typename Body>
double cpu_per_tick(int ticks, Body&& body) {
  const int64_t start = bench::thread_cpu_ns();
  for (int i = 0; i < ticks; ++i) body();
  return static_cast<double>(bench::thread_cpu_ns() - start) / ticks;
}

struct TimedRun {
  double cpu_per_tick_ns;
  double lateness_p50_us;
  double lateness_p99_us;
  uint64_t missed;
};

// A timerfd loop at `rate_ns` for `ticks` ticks that runs `body` each tick: with an empty body,
// the lateness floor of this machine; with the preads, the CPU floor of a timed sampler.
template <typename Body>
TimedRun timer_loop(int64_t rate_ns, int ticks, Body&& body) {
  Fd timer(timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC));
  const int64_t start = bench::monotonic_ns() + rate_ns;
  const itimerspec spec{{0, rate_ns}, {start / 1'000'000'000, start % 1'000'000'000}};
  timerfd_settime(timer.get(), TFD_TIMER_ABSTIME, &spec, nullptr);
  std::vector<double> lateness;
  uint64_t next = 0, missed = 0;
  const int64_t cpu0 = bench::thread_cpu_ns();
  for (int i = 0; i < ticks; ++i) {
    uint64_t expirations = 0;
    if (read(timer.get(), &expirations, sizeof expirations) != sizeof expirations) continue;
    const uint64_t tick = next + expirations - 1;
    next = tick + 1;
    missed += expirations - 1;
    lateness.push_back(
        static_cast<double>(bench::monotonic_ns() - start - static_cast<int64_t>(tick) * rate_ns) /
        1000.0);
    body();
  }
  const double cpu = static_cast<double>(bench::thread_cpu_ns() - cpu0) / ticks;
  return {cpu, bench::quantile(lateness, 0.5), bench::quantile(lateness, 0.99), missed};
}

}  // namespace

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::stoi(argv[1]) : 20;
  const int ticks_per_round = 500;

  auto opened = sampler::open_system_sources({}, config::default_source_settings());
  sampler::Sampler sampler(std::move(opened.sources), std::chrono::milliseconds(1));
  std::vector<int64_t> values(sampler.schema().size());
  auto readers = floor_readers();
  std::string_view bytes;

  std::vector<double> ours, floor;
  for (int r = 0; r < rounds; ++r) {
    floor.push_back(cpu_per_tick(ticks_per_round, [&] {
      for (auto& reader : readers) (void)reader->read(bytes);
    }));
    ours.push_back(cpu_per_tick(ticks_per_round, [&] { sampler.sample_once(values); }));
  }
  const double ours_median = bench::quantile(ours, 0.5);
  const double floor_median = bench::quantile(floor, 0.5);
  std::printf("sampler tick (read + parse, %zu files, %zu series): %.1f us CPU\n", readers.size(),
              sampler.schema().size(), ours_median / 1000);
  std::printf("raw floor (pread of the same files):              %.1f us CPU\n",
              floor_median / 1000);
  std::printf("ratio sampler/floor: %.2f  (target <= 1.5)\n", ours_median / floor_median);

  // At the real timer: the full loop (timer + reads + queue) against a bare timer.
  const int timed_ticks = 5000;
  const TimedRun bare = timer_loop(1'000'000, timed_ticks, [] {});
  const TimedRun timed_floor = timer_loop(1'000'000, timed_ticks, [&] {
    for (auto& reader : readers) (void)reader->read(bytes);
  });
  sampler::FrameQueue queue(sampler.schema().size(), 8192);
  StopSignal stop;
  const int64_t cpu0 = bench::thread_cpu_ns();
  sampler.run(queue, stop, timed_ticks);
  const double loop_cpu = static_cast<double>(bench::thread_cpu_ns() - cpu0) / timed_ticks;
  const auto& lateness = sampler.stats().lateness;
  std::printf(
      "at 1 ms for %d ticks: sampler loop %.1f us CPU/tick (%.1f%% of a core), "
      "timer + pread floor %.1f us/tick, bare timer %.1f us/tick\n",
      timed_ticks, loop_cpu / 1000, loop_cpu / 1e4, timed_floor.cpu_per_tick_ns / 1000,
      bare.cpu_per_tick_ns / 1000);
  std::printf("ratio sampler loop/timed floor: %.2f  (target <= 1.5)\n",
              loop_cpu / timed_floor.cpu_per_tick_ns);
  std::printf(
      "lateness: bare timer p50 %.0f us p99 %.0f us missed %lu; sampler p50 <= %ld us "
      "p99 <= %ld us missed %lu late %lu\n",
      bare.lateness_p50_us, bare.lateness_p99_us, static_cast<unsigned long>(bare.missed),
      static_cast<long>(lateness.quantile_upper_bound_ns(0.5) / 1000),
      static_cast<long>(lateness.quantile_upper_bound_ns(0.99) / 1000),
      static_cast<unsigned long>(sampler.stats().missed_ticks.load()),
      static_cast<unsigned long>(sampler.stats().late_ticks.load()));
  return 0;
}
