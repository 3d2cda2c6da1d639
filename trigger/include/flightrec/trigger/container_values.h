#pragma once
// What a container rule compares (config/container_signals.h), derived from one container's
// successive reads as the container tier hands them over (recorder/containers/container_round.h):
// each read folds in, and value() says what each signal is now. Pure, so tests feed it reads.
//
// - cpu_throttled_ratio: the throttled share of the newest CFS period that ended between two
//   reads (recorder/containers/cpu_signals.h). A read that saw no period end (read sooner than
//   a period, as the fast tier is) keeps the last period's share while less than two periods
//   have passed since it ended; after that the group has been idle or unthrottled, and it is 0.
// - memory_usage_bytes, memory_fill: the newest read's usage, and over the limit (no value
//   without one).
// - the rest: over the last slow round, the only one that reads every file: the CPU rate, the
//   share of periods throttled, and each memory.events counter's increase.
// NaN where the reads allow no value (the first read, a counter that went back, a missing file):
// it never satisfies a condition.
#include <cstdint>
#include <optional>

#include "flightrec/config/container_signals.h"
#include "flightrec/container/cgroups/cgroup_stats.h"
#include "flightrec/recorder/containers/cpu_signals.h"

namespace flightrec::trigger {

// Whether the signal can change at a fast round (else only at a slow one).
[[nodiscard]] bool is_fast_signal(config::ContainerSignal signal);

class ContainerValues {
 public:
  // One read at `mono_ns` (CLOCK_MONOTONIC); `slow` when every file was read.
  void take(const container::CgroupStats& stats, int64_t mono_ns, bool slow);
  [[nodiscard]] double value(config::ContainerSignal signal) const;

 private:
  bool have_read_ = false;
  recorder::containers::CpuReading last_;
  recorder::containers::CpuReading last_slow_;
  container::MemoryEvents events_;       // at the last slow round
  container::MemoryEvents events_step_;  // their increase over it (kAbsent: none)
  std::optional<double> share_;
  int64_t share_at_ns_ = 0;
  std::optional<double> cores_;
  std::optional<double> periods_ratio_;
  int64_t usage_bytes_ = container::kAbsent;
  int64_t limit_bytes_ = container::kAbsent;
};

}  // namespace flightrec::trigger
