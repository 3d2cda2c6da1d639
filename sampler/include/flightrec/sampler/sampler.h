#pragma once
// The sampler thread's loop: a timerfd armed with absolute deadlines at the configured rate; each
// tick reads the sources that are due (every source has its own rate, a whole number of ticks) and
// hands the frame to the recorder through a FrameQueue. A source not due this tick keeps its last
// values in the frame: its information has not changed at a finer step than its rate.
// In steady state it never allocates, throws or blocks on anything but its timer (a test counts
// allocations). Late and missed ticks are counted, never caught up by bursts of reads.
//
// With an in-kernel tick (use_kernel_ticks, sampler.backend: ebpf) the ticks come from the kernel
// instead: the thread, kept on the timer's CPU, is woken by the timer's own interrupt at the rate
// of its fastest file source, drains the ticks recorded since, makes a frame of each (CPU times
// from the tick, held while a CPU is offline and re-based when it returns: cpu_hotplug_guard.h;
// the file sources' values as last read) and then reads the file sources that are due, whose
// values go into the frames of later ticks.
//
// With a CPU budget (sampler.cpu_budget) the thread also checks, about once a second, the
// process's CPU over the last window and slows its costliest source while over budget, restoring
// it once well under (cpu_budget.h). The rates are the thread's own: it changes them between two
// ticks, and other threads see them only through the atomics of SamplerStats.
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "flightrec/common/fd.h"
#include "flightrec/common/stop_signal.h"
#include "flightrec/sampler/cpu_budget.h"
#include "flightrec/sampler/cpu_hotplug_guard.h"
#include "flightrec/sampler/frame_queue.h"
#include "flightrec/sampler/kernel_ticks.h"
#include "flightrec/sampler/sampler_stats.h"
#include "flightrec/sampler/series.h"
#include "flightrec/sampler/source.h"
#include "flightrec/sampler/sources/system_sources.h"

namespace flightrec::sampler {

// `period` as a whole number of `tick`s: the nearest, at least one. How a configured rate becomes
// "every N ticks" (each source of the sampler, the socket tables of the process tier).
[[nodiscard]] uint32_t whole_ticks(std::chrono::nanoseconds period,
                                   std::chrono::nanoseconds tick) noexcept;

class Sampler {
 public:
  // `source_rates` holds one rate per source (empty: every source every tick). Each is rounded to
  // the nearest whole number of ticks, at least one; read_every() says what it became. A budget
  // of 0 (the default) leaves the rates as configured.
  Sampler(std::vector<std::unique_ptr<Source>> sources, std::chrono::nanoseconds rate,
          const std::vector<std::chrono::nanoseconds>& source_rates = {},
          const CpuBudgetSettings& budget = {});
  // The system sources as opened from the config, each at its configured rate.
  Sampler(OpenedSources opened, std::chrono::nanoseconds rate, const CpuBudgetSettings& budget = {})
      : Sampler(std::move(opened.sources), rate, opened.rates, budget) {}

  // Takes the ticks from `ticks` (whose period must be rate()) rather than from a timer of its own;
  // before run(). Throws std::invalid_argument on another period.
  void use_kernel_ticks(std::unique_ptr<KernelTicks> ticks);
  // "ebpf" with an in-kernel tick, "procfs" when the thread's own timer ticks and it reads every
  // source itself.
  [[nodiscard]] std::string_view backend() const noexcept {
    return kernel_ticks_ ? "ebpf" : "procfs";
  }
  // Ticks between two wake-ups of the thread: 1 without an in-kernel tick.
  [[nodiscard]] uint32_t wake_every() const noexcept { return wake_every_; }

  [[nodiscard]] const Schema& schema() const noexcept { return schema_; }
  [[nodiscard]] std::chrono::nanoseconds rate() const noexcept { return rate_; }
  [[nodiscard]] SamplerStats& stats() noexcept { return stats_; }
  [[nodiscard]] const SamplerStats& stats() const noexcept { return stats_; }
  [[nodiscard]] const std::vector<std::unique_ptr<Source>>& sources() const noexcept {
    return sources_;
  }

  // Ticks between two reads of source `index` (sources() order). The budget changes it while
  // run() runs: call it from the sampler thread, or once run() returned; other threads read
  // stats().sources[index]->rate_ns.
  [[nodiscard]] uint32_t read_every(size_t index) const noexcept { return read_every_[index]; }
  // The period at which source `index` is really read: read_every(index) ticks (same caveat).
  [[nodiscard]] std::chrono::nanoseconds source_rate(size_t index) const noexcept {
    return rate_ * read_every_[index];
  }
  // The period source `index` was configured with, in whole ticks; never changes (any thread).
  [[nodiscard]] std::chrono::nanoseconds configured_rate(size_t index) const noexcept {
    return rate_ * configured_every_[index];
  }

  // Reads every source once into `values` (schema().size() of them), timing each source.
  void sample_once(std::span<int64_t> values) noexcept;

  // Reads into `values` the sources due at tick number `tick` (counted from 0 at the first
  // deadline); the others' values are left as they are. A source whose due tick was skipped (the
  // thread ran late) is read at the next tick it gets. Sources a kernel tick gives whole are not
  // read.
  void sample_due(uint64_t tick, std::span<int64_t> values) noexcept;

  // Ticks on the calling thread until `stop` is requested (see wake) or, when max_ticks > 0,
  // until that many ticks were sampled. Throws std::system_error if the timer cannot be armed.
  void run(FrameQueue& queue, const StopSignal& stop, uint64_t max_ticks = 0);

  // Any thread, after requesting the stop signal run() was given: makes run() see it now rather
  // than at its next tick. The loop blocks in read() on its timer alone (one syscall a tick, not
  // poll + read), so the request is delivered by firing the timer early; the periodic timer is
  // not restored, so call this only to stop.
  void wake() noexcept;

 private:
  void read_source(size_t index, std::span<int64_t> values) noexcept;
  void run_on_timer(FrameQueue& queue, const StopSignal& stop, uint64_t max_ticks);
  void run_on_kernel_ticks(FrameQueue& queue, const StopSignal& stop, uint64_t max_ticks);
  // Every tick the kernel recorded since the last drain into kernel_batch_, with each CPU's times
  // held and re-based across CPU hotplug (hotplug_guard_).
  void drain_kernel_ticks();
  // The frame of drained tick `index`: the kernel tick's values into values_, then the queue.
  void push_kernel_tick(size_t index, uint64_t tick, int64_t real_offset_ns, FrameQueue& queue);
  // The budget's check, at most once per check_every: measures, decides, applies one change.
  void check_budget(int64_t mono_ns);
  void apply_rate_step(const RateStep& step, double used);

  std::vector<std::unique_ptr<Source>> sources_;
  std::vector<size_t> offsets_;             // first value index of each source in a frame
  std::vector<uint32_t> configured_every_;  // ticks between two reads as configured, per source
  std::vector<uint32_t> read_every_;        // ticks between two reads now, per source
  std::vector<uint64_t> read_period_;       // tick / read_every of the newest read, per source
  CpuBudgetSettings budget_;
  std::optional<CpuWindow> budget_window_;  // only with a budget
  std::vector<uint64_t> budget_read_ns_;    // each source's read time at the check; sized once
  std::vector<double> budget_read_shares_;  // each source's share over the window; sized once
  std::vector<SourceCost> budget_costs_;    // what the policy sees; sized once
  int64_t next_budget_check_ns_ = 0;
  bool budget_exhausted_logged_ = false;  // over budget with nothing left to slow, said once
  Schema schema_;
  std::chrono::nanoseconds rate_;
  SamplerStats stats_;
  std::vector<int64_t> values_;  // the frame being filled; sized once
  Fd timer_;
  std::unique_ptr<KernelTicks> kernel_ticks_;  // null: the timer ticks
  std::vector<KernelTickShare> kernel_share_;  // per source; none without kernel ticks
  KernelTickBatch kernel_batch_;               // the newest drain; capacity kept
  CpuHotplugGuard hotplug_guard_;              // sized for the kernel tick's CPUs
  uint32_t wake_every_ = 1;
};

}  // namespace flightrec::sampler
