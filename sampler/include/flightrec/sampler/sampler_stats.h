#pragma once
// The sampler's own health, written by the sampler thread with relaxed atomics (no locks, no
// allocation) and read by the exporter. Mirrors node_exporter's per-collector duration/success.
#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace flightrec::sampler {

// Tick lateness: how long after its deadline a tick started. Upper bounds in microseconds; the
// last bucket is +Inf. Cumulative on read, like a Prometheus histogram.
inline constexpr std::array<int64_t, 10> kLatenessBoundsUs{25,   50,   100,  250,   500,
                                                           1000, 2500, 5000, 10000, 100000};

struct LatenessHistogram {
  std::array<std::atomic<uint64_t>, kLatenessBoundsUs.size() + 1> buckets{};  // not cumulative
  std::atomic<uint64_t> sum_ns{0};

  void observe(int64_t lateness_ns) noexcept;
  // Lateness at quantile q (0..1) as the upper bound of the bucket holding it, in ns; -1 if empty.
  [[nodiscard]] int64_t quantile_upper_bound_ns(double q) const noexcept;
};

struct SourceStats {
  std::string name;
  int64_t configured_rate_ns = 0;  // its configured rate in whole sampler ticks
  // How often it is read now: the configured rate, or slower while sampler.cpu_budget holds it
  // back. Written by the sampler thread only.
  std::atomic<int64_t> rate_ns{0};
  std::atomic<uint64_t> rate_lowerings{0};   // changes to a slower rate (sampler.cpu_budget)
  std::atomic<uint64_t> rate_restorings{0};  // changes back towards the configured rate
  std::atomic<uint64_t> reads{0};
  std::atomic<uint64_t> failures{0};  // ticks where the source read nothing
  std::atomic<uint64_t> partials{0};  // ticks where some of its values were absent
  std::atomic<uint64_t> duration_ns_total{0};
  std::atomic<int64_t> last_duration_ns{0};
  std::atomic<bool> last_ok{false};  // the newest read was not a failure
};

// One change of a source's rate by sampler.cpu_budget: from `real_ns` (Unix ns) on, source
// number `source` (SamplerStats::sources order) is read every `rate_ns`.
struct RateChange {
  int64_t real_ns = 0;
  size_t source = 0;
  int64_t rate_ns = 0;
};

// The newest kKept rate changes, for recordings' metadata. Written by the sampler thread at most
// once per budget window (10 s), read when a recording is written: a mutex held for a copy of a
// few hundred bytes is never contended in practice, and add() never allocates.
class RateChangeLog {
 public:
  // At one change per 10 s window, 256 changes span 42 minutes: the default ring (10 min) whole.
  static constexpr size_t kKept = 256;

  void add(const RateChange& change) noexcept;
  // Oldest first; and how many changes ever happened (more than returned once some fell out).
  [[nodiscard]] std::vector<RateChange> newest() const;
  [[nodiscard]] uint64_t total() const noexcept;

 private:
  mutable std::mutex mutex_;
  std::array<RateChange, kKept> ring_{};
  uint64_t total_ = 0;
};

struct SamplerStats {
  std::atomic<uint64_t> ticks{0};            // ticks sampled
  std::atomic<uint64_t> late_ticks{0};       // ticks that started more than half a period late
  std::atomic<uint64_t> missed_ticks{0};     // deadlines that passed with no tick at all
  std::atomic<uint64_t> queue_overflows{0};  // frames dropped because the recorder fell behind
  // CLOCK_MONOTONIC time from arming the timer to the newest tick's wake-up: divided by the
  // period, the deadlines passed by then, which ticks + missed_ticks must match (give or take the
  // one in progress): a check of the counting against the clock rather than the timer.
  std::atomic<int64_t> elapsed_ns{0};
  std::atomic<bool> realtime{false};  // the sampler thread runs SCHED_FIFO (sampler.realtime)
  // Where the ticks come from (sampler.backend): "procfs" or "ebpf"; set before the thread starts.
  std::string backend = "procfs";
  LatenessHistogram lateness;
  std::vector<std::unique_ptr<SourceStats>> sources;  // one per source, fixed at start-up
  double cpu_budget = 0;  // sampler.cpu_budget as a share of one core (0: off); set at start-up
  // The daemon's CPU over the newest full budget window, as a share of one core; negative until
  // the first window is complete (or with the budget off).
  std::atomic<double> cpu_used{-1};
  RateChangeLog rate_changes;
};

// "vmstat=8ms@1764621663123456789 vmstat=4ms@...": the kept rate changes, oldest first, each the
// source's new rate from that Unix ns on; "" when there were none. Recordings carry it as
// sampler.rate_changes beside sampler.source_rates (the configured rates).
[[nodiscard]] std::string rate_changes_text(const SamplerStats& stats);

}  // namespace flightrec::sampler
