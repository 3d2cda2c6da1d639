#include "flightrec/trigger/container_values.h"

#include <limits>

namespace flightrec::trigger {
namespace {

using config::ContainerSignal;
using container::kAbsent;
using container::kUnlimited;
using recorder::containers::CpuReading;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

CpuReading cpu_reading(const container::CpuStat& cpu, int64_t at_ns) {
  return {.at_ns = at_ns,
          .usage_us = cpu.usage_us,
          .periods = cpu.periods,
          .throttled_periods = cpu.throttled_periods,
          .throttled_us = cpu.throttled_us};
}

// A counter's increase: kAbsent when either read lacks it or it went back (a cgroup made again).
int64_t increase(int64_t before, int64_t after) {
  if (before == kAbsent || after == kAbsent || after < before) return kAbsent;
  return after - before;
}

double or_nan(std::optional<double> value) { return value.value_or(kNaN); }
double or_nan(int64_t value) { return value == kAbsent ? kNaN : static_cast<double>(value); }

}  // namespace

bool is_fast_signal(ContainerSignal signal) {
  return signal == ContainerSignal::cpu_throttled_ratio ||
         signal == ContainerSignal::memory_usage_bytes || signal == ContainerSignal::memory_fill;
}

void ContainerValues::take(const container::CgroupStats& stats, int64_t mono_ns, bool slow) {
  const CpuReading now = cpu_reading(stats.cpu, mono_ns);
  const int64_t period_us = stats.bandwidth.period_us;
  if (have_read_) {
    if (auto share = recorder::containers::throttled_share(last_, now, period_us)) {
      share_ = share;
      share_at_ns_ = mono_ns;
    } else if (now.periods == kAbsent || period_us == kAbsent || period_us <= 0) {
      share_.reset();
    } else if (!share_ || mono_ns - share_at_ns_ >= 2 * period_us * 1000) {
      // No period ended for two periods' time: idle (nr_periods counts only periods with
      // runnable tasks), so not held back.
      share_ = 0.0;
      share_at_ns_ = mono_ns;
    }
  }
  last_ = now;
  have_read_ = true;
  usage_bytes_ = stats.memory.usage_bytes;
  limit_bytes_ = stats.memory.limit_bytes;
  if (!slow) return;
  cores_ = recorder::containers::cpu_cores(last_slow_, now);
  periods_ratio_ = recorder::containers::throttled_periods_ratio(last_slow_, now);
  const container::MemoryEvents& events = stats.memory.events;
  events_step_ = {.low = increase(events_.low, events.low),
                  .high = increase(events_.high, events.high),
                  .max = increase(events_.max, events.max),
                  .oom = increase(events_.oom, events.oom),
                  .oom_kill = increase(events_.oom_kill, events.oom_kill)};
  events_ = events;
  last_slow_ = now;
}

double ContainerValues::value(ContainerSignal signal) const {
  switch (signal) {
    case ContainerSignal::cpu_throttled_ratio:
      return or_nan(share_);
    case ContainerSignal::cpu_throttled_periods_ratio:
      return or_nan(periods_ratio_);
    case ContainerSignal::cpu_usage_cores:
      return or_nan(cores_);
    case ContainerSignal::memory_usage_bytes:
      return or_nan(usage_bytes_);
    case ContainerSignal::memory_fill:
      if (usage_bytes_ == kAbsent || limit_bytes_ == kAbsent || limit_bytes_ == kUnlimited ||
          limit_bytes_ <= 0) {
        return kNaN;
      }
      return static_cast<double>(usage_bytes_) / static_cast<double>(limit_bytes_);
    case ContainerSignal::memory_events_low_increase:
      return or_nan(events_step_.low);
    case ContainerSignal::memory_events_high_increase:
      return or_nan(events_step_.high);
    case ContainerSignal::memory_events_max_increase:
      return or_nan(events_step_.max);
    case ContainerSignal::memory_events_oom_increase:
      return or_nan(events_step_.oom);
    case ContainerSignal::memory_events_oom_kill_increase:
      return or_nan(events_step_.oom_kill);
  }
  return kNaN;
}

}  // namespace flightrec::trigger
