#include "flightrec/sampler/cpu_hotplug_guard.h"

#include <algorithm>

namespace flightrec::sampler {

void CpuHotplugGuard::apply(KernelTickBatch& batch) noexcept {
  const size_t guarded = std::min(batch.cpu_count, cpus_.size());
  if (guarded == 0) return;
  const size_t ticks = std::min(batch.heads.size(), batch.cpu_times.size() / batch.cpu_count);
  for (size_t tick = 0; tick < ticks; ++tick) {
    KernelCpuTimes* const times = batch.cpu_times.data() + tick * batch.cpu_count;
    for (size_t id = 0; id < guarded; ++id) apply(cpus_[id], times[id]);
  }
}

void CpuHotplugGuard::apply(Cpu& cpu, KernelCpuTimes& times) noexcept {
  const bool online = times.online != 0;
  if (!cpu.seen) {
    cpu.seen = true;
  } else if (!online) {
    times.ns = cpu.handed_on;
  } else {
    const bool returning = !cpu.online;
    for (size_t mode = 0; mode < kStatCpuModes; ++mode) {
      uint64_t& value = times.ns[mode];
      value += cpu.carried[mode];
      if (returning && value < cpu.handed_on[mode]) {
        cpu.carried[mode] += cpu.handed_on[mode] - value;
        value = cpu.handed_on[mode];
      }
    }
  }
  cpu.handed_on = times.ns;
  cpu.online = online;
}

}  // namespace flightrec::sampler
