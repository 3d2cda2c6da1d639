#pragma once
// The sampler's own health, written by the sampler thread with relaxed atomics (no locks, no
// allocation) and read by the exporter. Mirrors node_exporter's per-collector duration/success.
#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
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
  int64_t rate_ns = 0;  // how often it is read: its configured rate in whole sampler ticks
  std::atomic<uint64_t> reads{0};
  std::atomic<uint64_t> failures{0};  // ticks where the source read nothing
  std::atomic<uint64_t> partials{0};  // ticks where some of its values were absent
  std::atomic<uint64_t> duration_ns_total{0};
  std::atomic<int64_t> last_duration_ns{0};
  std::atomic<bool> last_ok{false};  // the newest read was not a failure
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
  LatenessHistogram lateness;
  std::vector<std::unique_ptr<SourceStats>> sources;  // one per source, fixed at start-up
};

}  // namespace flightrec::sampler
