// The in-kernel tick's CPU times across CPU hotplug (cpu_hotplug_guard.h): an offline CPU held at
// its last times, a returning one continuing from them whether the kernel kept its idle clock or
// restarted it, an online one passed as the kernel counts it, and an idle sum read outside what
// the clock allows held to it. The live kernel's side is tests/e2e/cpu_hotplug.sh.
#include "flightrec/sampler/cpu_hotplug_guard.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <vector>

#include "flightrec/sampler/kernel_ticks.h"

using namespace flightrec::sampler;

namespace {

constexpr size_t kUser = 0;
constexpr size_t kIdle = 3;
constexpr size_t kIowait = 4;
constexpr uint64_t kSecond = 1'000'000'000;

// One CPU's state at one tick: its user, idle and iowait times in seconds.
struct Cpu {
  bool online = true;
  uint64_t user = 0;
  uint64_t idle = 0;
  uint64_t iowait = 0;
};

constexpr int64_t kTickSpacingNs = 10 * kSecond;

// A batch of one tick per entry of `ticks`, each of the same number of CPUs, ticks 10 s apart
// from `first_ns` on.
KernelTickBatch batch_of(const std::vector<std::vector<Cpu>>& ticks, int64_t first_ns = 0) {
  KernelTickBatch batch;
  batch.cpu_count = ticks.front().size();
  for (const auto& cpus : ticks) {
    const auto index = static_cast<int64_t>(batch.heads.size());
    batch.heads.push_back({.mono_ns = first_ns + index * kTickSpacingNs});
    for (const Cpu& cpu : cpus) {
      KernelCpuTimes times;
      times.online = cpu.online ? 1 : 0;
      times.ns[kUser] = cpu.user * kSecond;
      times.ns[kIdle] = cpu.idle * kSecond;
      times.ns[kIowait] = cpu.iowait * kSecond;
      batch.cpu_times.push_back(times);
    }
  }
  return batch;
}

// CPU `cpu`'s times at every tick of `batch`, in seconds, as {user, idle, iowait}.
std::vector<std::vector<uint64_t>> times_of(const KernelTickBatch& batch, size_t cpu) {
  std::vector<std::vector<uint64_t>> out;
  for (size_t tick = 0; tick < batch.heads.size(); ++tick) {
    const KernelCpuTimes& times = batch.cpus_of(tick)[cpu];
    out.push_back(
        {times.ns[kUser] / kSecond, times.ns[kIdle] / kSecond, times.ns[kIowait] / kSecond});
  }
  return out;
}

using Rows = std::vector<std::vector<uint64_t>>;

}  // namespace

TEST_CASE("An offline CPU is held at its last times and, its idle clock kept, goes on from it",
          "[kernel_tick][hotplug]") {
  // Offline, the kernel shows its tick-based idle (10 s more here) and iowait (3 s less); back
  // online, its idle clock again, which it kept.
  KernelTickBatch batch = batch_of({{{true, 5, 100, 8}},
                                    {{false, 6, 110, 5}},
                                    {{false, 6, 110, 5}},
                                    {{true, 6, 101, 8}},
                                    {{true, 7, 103, 8}}});
  CpuHotplugGuard guard(1);
  guard.apply(batch);
  CHECK(times_of(batch, 0) ==
        Rows{{5, 100, 8}, {5, 100, 8}, {5, 100, 8}, {6, 101, 8}, {7, 103, 8}});
  CHECK(batch.cpus_of(1)[0].online == 0);  // the stat source shows it absent
  CHECK(batch.cpus_of(3)[0].online == 1);
}

TEST_CASE("A CPU whose idle clock restarted while it was offline continues from its last times",
          "[kernel_tick][hotplug]") {
  KernelTickBatch batch =
      batch_of({{{true, 5, 100, 8}}, {{false, 5, 110, 5}}, {{true, 5, 0, 0}}, {{true, 6, 2, 1}}});
  CpuHotplugGuard guard(1);
  guard.apply(batch);
  CHECK(times_of(batch, 0) == Rows{{5, 100, 8}, {5, 100, 8}, {5, 100, 8}, {6, 102, 9}});

  SECTION("and goes on carrying the difference, into later batches and a second return") {
    KernelTickBatch later =
        batch_of({{{true, 7, 4, 1}}, {{false, 7, 200, 0}}, {{true, 7, 1, 0}}, {{true, 8, 3, 2}}},
                 4 * kTickSpacingNs);
    guard.apply(later);
    CHECK(times_of(later, 0) == Rows{{7, 104, 9}, {7, 104, 9}, {7, 104, 9}, {8, 106, 11}});
  }
}

TEST_CASE("While a CPU stays online its times pass as the kernel counts them",
          "[kernel_tick][hotplug]") {
  // An idle period counted as iowait while a task waited for I/O, as idle once it ended without.
  KernelTickBatch batch =
      batch_of({{{true, 5, 100, 8}}, {{true, 5, 100, 10}}, {{true, 5, 103, 8}}});
  CpuHotplugGuard guard(1);
  guard.apply(batch);
  CHECK(times_of(batch, 0) == Rows{{5, 100, 8}, {5, 100, 10}, {5, 103, 8}});
}

TEST_CASE("A CPU first seen offline counts at the kernel's times, and goes on from them",
          "[kernel_tick][hotplug]") {
  // CPU 1 is offline from the start: the sums over CPUs count it as /proc/stat's aggregate does.
  KernelTickBatch batch = batch_of({{{true, 1, 10, 0}, {false, 2, 50, 4}},
                                    {{true, 1, 11, 0}, {false, 2, 50, 4}},
                                    {{true, 1, 12, 0}, {true, 2, 30, 1}},
                                    {{true, 1, 13, 0}, {true, 3, 31, 1}}});
  CpuHotplugGuard guard(2);
  guard.apply(batch);
  CHECK(times_of(batch, 0) == Rows{{1, 10, 0}, {1, 11, 0}, {1, 12, 0}, {1, 13, 0}});
  CHECK(times_of(batch, 1) == Rows{{2, 50, 4}, {2, 50, 4}, {2, 50, 4}, {3, 51, 4}});
}

TEST_CASE("CPUs beyond the guard's count pass unchanged", "[kernel_tick][hotplug]") {
  KernelTickBatch batch =
      batch_of({{{true, 1, 10, 0}, {true, 2, 20, 0}}, {{true, 1, 11, 0}, {false, 9, 90, 0}}});
  CpuHotplugGuard guard(1);
  guard.apply(batch);
  CHECK(times_of(batch, 1) == Rows{{2, 20, 0}, {9, 90, 0}});
}

TEST_CASE("An idle sum read past the clock's pace is held to it, and the next reading passes",
          "[kernel_tick][hotplug]") {
  // The second tick read an idle period in progress from a cleared entry time: as if the CPU
  // had idled since boot.
  KernelTickBatch batch = batch_of(
      {{{true, 1, 100, 0}}, {{true, 1, 50'100, 0}}, {{true, 1, 105, 0}}, {{true, 1, 115, 0}}});
  CpuHotplugGuard guard(1);
  guard.apply(batch);
  CHECK(times_of(batch, 0) == Rows{{1, 100, 0}, {1, 110, 0}, {1, 110, 0}, {1, 115, 0}});
}

TEST_CASE("An idle sum read below the last is held, and one that stays below is re-based",
          "[kernel_tick][hotplug]") {
  // A read of cleared fields once, then a clock that restarted and stayed restarted.
  KernelTickBatch batch = batch_of({{{true, 1, 100, 8}},
                                    {{true, 1, 0, 0}},
                                    {{true, 1, 110, 8}},
                                    {{true, 1, 1, 0}},
                                    {{true, 1, 3, 0}},
                                    {{true, 1, 5, 1}}});
  CpuHotplugGuard guard(1);
  guard.apply(batch);
  CHECK(times_of(batch, 0) ==
        Rows{{1, 100, 8}, {1, 100, 8}, {1, 110, 8}, {1, 110, 8}, {1, 110, 8}, {1, 112, 9}});
}
