// What a kernel tick (kernel_ticks.h) writes into the stat and cgroup_cpu sources' values: the
// conversions /proc/stat and the root cgroup's cpu.stat apply to the same per-CPU nanoseconds.
#include <catch2/catch.hpp>
#include <cstdint>
#include <vector>

#include "flightrec/sampler/kernel_ticks.h"
#include "flightrec/sampler/sources/cgroup_cpu.h"
#include "flightrec/sampler/sources/stat.h"

using namespace flightrec::sampler;

namespace {

constexpr uint64_t kNsPerUserHzTick = 10'000'000;  // USER_HZ 100

// Two CPUs; CPU n's mode m holds m * 100 ms + 15 ms + n * 10 ms: CPU 0's 15 ms and CPU 1's 25 ms
// are 1 and 2 USER_HZ ticks, their 40 ms sum 4, so the aggregate (summed, then divided, as
// /proc/stat does) is one more than the sum of the per-CPU values (each divided).
KernelTickBatch two_cpu_batch() {
  KernelTickBatch batch;
  batch.cpu_count = 2;
  batch.heads.push_back({.mono_ns = 5, .context_switches = 123, .running = 3, .blocked = 1});
  for (uint64_t cpu = 0; cpu < 2; ++cpu) {
    KernelCpuTimes times;
    for (size_t mode = 0; mode < kStatCpuModes; ++mode) {
      times.ns[mode] = mode * 100'000'000 + 15'000'000 + cpu * 10'000'000;
    }
    batch.cpu_times.push_back(times);
  }
  return batch;
}

}  // namespace

TEST_CASE("A kernel tick gives stat its CPU runs, ctxt and run queues as /proc/stat shows them",
          "[sources][stat][kernel_tick]") {
  const KernelTickBatch batch = two_cpu_batch();
  StatLayout layout;
  layout.cpu_ids = {0, 1};
  layout.index_by_cpu_id = {0, 1};
  std::vector<int64_t> out(stat_value_count(layout), -7);
  take_stat_kernel_tick(batch, 0, layout, kNsPerUserHzTick, out);

  for (size_t mode = 0; mode < kStatCpuModes; ++mode) {
    INFO("mode " << mode);
    const auto base = static_cast<int64_t>(mode * 10);
    CHECK(out[kStatCpuModes + mode] == base + 1);      // CPU 0
    CHECK(out[2 * kStatCpuModes + mode] == base + 2);  // CPU 1
    CHECK(out[mode] == 2 * base + 4);                  // the aggregate line
  }
  const size_t scalars = (layout.cpu_ids.size() + 1) * kStatCpuModes;
  CHECK(out[scalars + 0] == 123);  // ctxt
  CHECK(out[scalars + 1] == -7);   // intr: not in the tick, left as it was
  CHECK(out[scalars + 2] == -7);   // processes: same
  CHECK(out[scalars + 3] == 3);    // procs_running
  CHECK(out[scalars + 4] == 1);    // procs_blocked
}

TEST_CASE("A CPU of the stat layout that the kernel tick lacks keeps its values",
          "[sources][stat][kernel_tick]") {
  const KernelTickBatch batch = two_cpu_batch();
  StatLayout layout;
  layout.cpu_ids = {0, 5};
  layout.index_by_cpu_id = {0, -1, -1, -1, -1, 1};
  std::vector<int64_t> out(stat_value_count(layout), -7);
  take_stat_kernel_tick(batch, 0, layout, kNsPerUserHzTick, out);
  CHECK(out[kStatCpuModes] == 1);       // CPU 0's user
  CHECK(out[2 * kStatCpuModes] == -7);  // CPU 5's: the tick has CPUs 0 and 1 only
}

TEST_CASE("A CPU the kernel tick has offline is absent from stat's runs but in the aggregate",
          "[sources][stat][kernel_tick][hotplug]") {
  KernelTickBatch batch = two_cpu_batch();
  batch.cpu_times[1].online = 0;  // its times are what the sampler held for it
  StatLayout layout;
  layout.cpu_ids = {0, 1};
  layout.index_by_cpu_id = {0, 1};
  std::vector<int64_t> out(stat_value_count(layout), -7);
  take_stat_kernel_tick(batch, 0, layout, kNsPerUserHzTick, out);
  for (size_t mode = 0; mode < kStatCpuModes; ++mode) {
    INFO("mode " << mode);
    const auto base = static_cast<int64_t>(mode * 10);
    CHECK(out[kStatCpuModes + mode] == base + 1);     // CPU 0
    CHECK(out[2 * kStatCpuModes + mode] == kAbsent);  // CPU 1, as /proc/stat omits its line
    CHECK(out[mode] == 2 * base + 4);                 // the aggregate still counts CPU 1
  }
}

TEST_CASE("A kernel tick gives cgroup_cpu what the kernel derives the root's cpu.stat from",
          "[sources][cgroup_cpu][kernel_tick]") {
  const KernelTickBatch batch = two_cpu_batch();
  std::array<int64_t, kCgroupCpuFields.size()> out{};
  take_cgroup_cpu_kernel_tick(batch, 0, out);
  // In ms: user + nice 15 + 115 + 25 + 125; system + irq + softirq (modes 2, 5, 6) 215 + 515 + 615
  // on CPU 0 and 225 + 525 + 625 on CPU 1.
  const int64_t user_us = 280'000;
  const int64_t system_us = 2'720'000;
  CHECK(out[1] == user_us);
  CHECK(out[2] == system_us);
  CHECK(out[0] == user_us + system_us);  // steal, idle, iowait and guest are in none of them
}
