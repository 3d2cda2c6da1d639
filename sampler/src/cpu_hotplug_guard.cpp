#include "flightrec/sampler/cpu_hotplug_guard.h"

#include <algorithm>

namespace flightrec::sampler {
namespace {

constexpr size_t kIdle = 3;    // kStatCpuModeNames' idle
constexpr size_t kIowait = 4;  // and iowait
// The idle clock and the tick's timestamp are both the monotonic clock, but a CPU leaving idle
// between the timestamp and the read of its fields adds the microseconds in between.
constexpr int64_t kPaceSlackNs = 1'000'000;
// How long an idle sum may stay below the last one handed on before it is taken as a restart.
constexpr int64_t kRestartAfterNs = 1'000'000'000;

uint64_t idle_sum(const std::array<uint64_t, kStatCpuModes>& ns) noexcept {
  return ns[kIdle] + ns[kIowait];
}

}  // namespace

void CpuHotplugGuard::apply(KernelTickBatch& batch) noexcept {
  const size_t guarded = std::min(batch.cpu_count, cpus_.size());
  if (guarded == 0) return;
  const size_t ticks = std::min(batch.heads.size(), batch.cpu_times.size() / batch.cpu_count);
  for (size_t tick = 0; tick < ticks; ++tick) {
    KernelCpuTimes* const times = batch.cpu_times.data() + tick * batch.cpu_count;
    const int64_t now_ns = batch.heads[tick].mono_ns;
    for (size_t id = 0; id < guarded; ++id) apply(cpus_[id], times[id], now_ns);
  }
}

void CpuHotplugGuard::apply(Cpu& cpu, KernelCpuTimes& times, int64_t now_ns) noexcept {
  const bool online = times.online != 0;
  if (!cpu.seen) {
    cpu.seen = true;
  } else if (!online) {
    times.ns = cpu.handed_on;
  } else {
    for (size_t mode = 0; mode < kStatCpuModes; ++mode) times.ns[mode] += cpu.carried[mode];
    if (!cpu.online) rebase(cpu, times);
    bound_idle(cpu, times, now_ns);
  }
  if (online) cpu.online_at_ns = now_ns;
  cpu.handed_on = times.ns;
  cpu.online = online;
}

void CpuHotplugGuard::rebase(Cpu& cpu, KernelCpuTimes& times) noexcept {
  for (size_t mode = 0; mode < kStatCpuModes; ++mode) {
    uint64_t& value = times.ns[mode];
    if (value < cpu.handed_on[mode]) {
      cpu.carried[mode] += cpu.handed_on[mode] - value;
      value = cpu.handed_on[mode];
    }
  }
}

void CpuHotplugGuard::bound_idle(Cpu& cpu, KernelCpuTimes& times, int64_t now_ns) noexcept {
  const uint64_t floor = idle_sum(cpu.handed_on);
  const uint64_t sum = idle_sum(times.ns);
  if (sum < floor) {
    if (cpu.below_since_ns < 0) cpu.below_since_ns = now_ns;
    if (now_ns - cpu.below_since_ns >= kRestartAfterNs) {
      rebase(cpu, times);
      cpu.below_since_ns = -1;
      return;
    }
    times.ns[kIdle] = cpu.handed_on[kIdle];
    times.ns[kIowait] = cpu.handed_on[kIowait];
    return;
  }
  cpu.below_since_ns = -1;
  const int64_t elapsed_ns = std::max<int64_t>(0, now_ns - cpu.online_at_ns);
  const uint64_t ceiling = floor + static_cast<uint64_t>(elapsed_ns + kPaceSlackNs);
  if (sum <= ceiling) return;
  // Past the ceiling: the excess comes off idle first, where an idle period in progress counts
  // unless tasks wait for I/O, then off iowait.
  uint64_t excess = sum - ceiling;
  const uint64_t off_idle = std::min(excess, times.ns[kIdle]);
  times.ns[kIdle] -= off_idle;
  excess -= off_idle;
  times.ns[kIowait] -= std::min(excess, times.ns[kIowait]);
}

}  // namespace flightrec::sampler
