#pragma once
// Makes the per-CPU times of the in-kernel tick (kernel_ticks.h) fit to be recorded as counters
// while CPUs go offline and come back. The kernel stops an offline CPU's counters, but the times
// they then give are not a continuation of its online ones: its idle and iowait come from the
// tick-based kernel_cpustat instead of the no-HZ idle clock (seconds apart on a machine up for a
// while), and a kernel that clears the idle clock when a CPU goes down restarts it from zero when
// the CPU comes back. Exported as they are, they jump at the offlining and fall back at the
// return, which Prometheus reads as a counter reset. So, for each CPU:
// - while it is offline its times are held at the last ones handed on: the stat source shows it
//   absent (as /proc/stat, which omits it, does), and the sums over every CPU (the aggregate cpu
//   line, the root cgroup's cpu.stat) keep counting it at those times, so they never go back;
// - when it comes back it continues from there: a mode whose time would now be lower than the one
//   handed on is re-based on it (the difference is carried from then on), the others go on as the
//   kernel counts them, which includes any time counted while the CPU was going down or coming up.
// The first tick that shows a CPU, online or not, is taken as it is. While a CPU stays online
// its times pass unchanged, iowait included: the kernel moves an idle period's time between idle
// and iowait as tasks start and stop waiting for I/O, and /proc/stat shows that too.
// One bound applies to every online tick: the sum of idle and iowait, which the tick reads from
// several fields of the idle clock while the kernel may be rewriting them (a CPU going down
// clears and restores them), can neither fall below the sum last handed on nor grow faster than
// the monotonic clock since then. A reading outside is held to the nearer bound; the next
// reading inside passes unchanged again, so a torn read costs at most one tick's idle time and
// nothing afterwards. A sum that stays below for a second is a restarted clock, re-based as at a
// return.
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "flightrec/sampler/kernel_ticks.h"

namespace flightrec::sampler {

class CpuHotplugGuard {
 public:
  // For ticks of `cpu_count` CPUs (KernelTicks::cpu_count()). Allocates here only.
  explicit CpuHotplugGuard(size_t cpu_count = 0) : cpus_(cpu_count) {}

  // Rewrites the CPU times of every tick of `batch`, oldest first, as described above; the
  // batches must come in the order the kernel recorded them. CPUs beyond the guard's count pass
  // unchanged. Never allocates.
  void apply(KernelTickBatch& batch) noexcept;

 private:
  struct Cpu {
    std::array<uint64_t, kStatCpuModes> handed_on{};  // the times of its newest tick, as rewritten
    std::array<uint64_t, kStatCpuModes> carried{};    // added to the kernel's times since a return
    int64_t online_at_ns = 0;     // the monotonic time of its newest online tick
    int64_t below_since_ns = -1;  // since when its idle sum is held up to the bound, or -1
    bool seen = false;
    bool online = false;  // at its newest tick
  };

  void apply(Cpu& cpu, KernelCpuTimes& times, int64_t now_ns) noexcept;
  // Adds to `carried` what brings each mode of `times` (already carried) up to the one handed on.
  static void rebase(Cpu& cpu, KernelCpuTimes& times) noexcept;
  // Holds idle + iowait of an online tick within the bounds described above.
  static void bound_idle(Cpu& cpu, KernelCpuTimes& times, int64_t now_ns) noexcept;

  std::vector<Cpu> cpus_;
};

}  // namespace flightrec::sampler
