#pragma once
// The sampler's tick taken in the kernel (`sampler.backend: ebpf`, docs/SOURCES.md "Backends"): a
// BPF program on a kernel timer fires at the sampler's rate and records, at each firing, the CPU
// counters /proc/stat and the root cgroup's cpu.stat would show at that instant. The sampler
// thread drains the records in batches, so it wakes a few times less often than the tick, reads
// neither file on the tick, and a thread kept off its CPU by a busy machine loses no tick: the
// records wait in the kernel's buffer. The implementation is sampler::make_kernel_ticks
// (ebpf_kernel_ticks.h).
#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "flightrec/sampler/sources/stat.h"

namespace flightrec::sampler {

// One CPU at one tick, in nanoseconds, in /proc/stat's columns and order (kStatCpuModeNames):
// user nice system idle iowait irq softirq steal guest guest_nice. idle and iowait include the
// CPU's current idle period, as /proc/stat's do. online is 1 for a CPU /proc/stat would list, 0
// for one that is offline or not a possible CPU: as drained, an offline CPU's times are the
// kernel's counters as they stand, whose idle and iowait are not those it counts online; the
// sampler holds them (CpuHotplugGuard, cpu_hotplug_guard.h) before any source sees them.
struct KernelCpuTimes {
  std::array<uint64_t, kStatCpuModes> ns{};
  uint64_t online = 1;
};

// What one tick saw besides the per-CPU times: /proc/stat's ctxt, procs_running, procs_blocked.
struct KernelTickHead {
  int64_t mono_ns = 0;  // CLOCK_MONOTONIC of the firing
  uint64_t context_switches = 0;
  uint64_t running = 0;
  uint64_t blocked = 0;
};

// The ticks of one drain, oldest first. The vectors keep their capacity between drains, so a
// sampler that reuses one batch does not allocate once it has seen its largest drain.
struct KernelTickBatch {
  size_t cpu_count = 0;                   // CPUs per tick: every possible CPU, by id
  std::vector<KernelTickHead> heads;      // one per tick
  std::vector<KernelCpuTimes> cpu_times;  // cpu_count per tick, tick after tick

  [[nodiscard]] std::span<const KernelCpuTimes> cpus_of(size_t tick) const noexcept {
    return std::span(cpu_times).subspan(tick * cpu_count, cpu_count);
  }
  void clear() noexcept {
    heads.clear();
    cpu_times.clear();
  }
};

class KernelTicks {
 public:
  virtual ~KernelTicks() = default;
  KernelTicks() = default;
  KernelTicks(const KernelTicks&) = delete;
  KernelTicks& operator=(const KernelTicks&) = delete;
  KernelTicks(KernelTicks&&) = delete;
  KernelTicks& operator=(KernelTicks&&) = delete;

  // The timer's period: the sampler's rate.
  [[nodiscard]] virtual std::chrono::nanoseconds period() const noexcept = 0;
  // CPUs per tick (every possible CPU, by id).
  [[nodiscard]] virtual size_t cpu_count() const noexcept = 0;
  // The CPU whose timer fires: a reader that waits on wait_fd() is best kept there, so that the
  // timer's interrupt wakes it without waking a second CPU.
  [[nodiscard]] virtual uint32_t timer_cpu() const noexcept = 0;
  // From now on the timer's interrupt makes wait_fd() readable at every `ticks`-th firing (0:
  // never), after recording that firing's tick.
  virtual void wake_every(uint32_t ticks) noexcept = 0;
  // A descriptor to poll for reading: readable when the timer woke the reader (wake_every) and
  // ticks wait. drain() takes them, after which it is not readable until the next wake-up.
  [[nodiscard]] virtual int wait_fd() const noexcept = 0;
  // Replaces `out`'s ticks with every tick recorded since the last call, oldest first. Never
  // blocks.
  virtual void drain(KernelTickBatch& out) = 0;
  // Firings not handed on, since the start: those the kernel could not record because its buffer
  // was full (the sampler thread did not drain it for that long), and records that failed the
  // per-CPU check. The sampler counts them as missed ticks, from the gap they leave.
  [[nodiscard]] virtual uint64_t lost() const noexcept = 0;
};

}  // namespace flightrec::sampler
