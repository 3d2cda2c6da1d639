#include "flightrec/recorder/containers/cpu_signals.h"

namespace flightrec::recorder::containers {
namespace {

using sampler::kAbsent;

// The growth of a counter between the reads; nothing when either lacks it or it went back (a
// cgroup removed and made again under the same path).
std::optional<int64_t> growth(int64_t before, int64_t after) {
  if (before == kAbsent || after == kAbsent || after < before) return std::nullopt;
  return after - before;
}

}  // namespace

std::optional<double> cpu_cores(const CpuReading& before, const CpuReading& after) {
  const auto used = growth(before.usage_us, after.usage_us);
  const int64_t elapsed_ns = after.at_ns - before.at_ns;
  if (!used || elapsed_ns <= 0) return std::nullopt;
  return static_cast<double>(*used) * 1e3 / static_cast<double>(elapsed_ns);
}

std::optional<double> throttled_share(const CpuReading& before, const CpuReading& after,
                                      int64_t period_us) {
  const auto periods = growth(before.periods, after.periods);
  const auto throttled = growth(before.throttled_us, after.throttled_us);
  if (!periods || *periods == 0 || !throttled || period_us <= 0) {
    return std::nullopt;
  }
  return static_cast<double>(*throttled) /
         (static_cast<double>(*periods) * static_cast<double>(period_us));
}

std::optional<double> throttled_periods_ratio(const CpuReading& before, const CpuReading& after) {
  const auto periods = growth(before.periods, after.periods);
  const auto throttled = growth(before.throttled_periods, after.throttled_periods);
  if (!periods || *periods == 0 || !throttled) return std::nullopt;
  return static_cast<double>(*throttled) / static_cast<double>(*periods);
}

bool throttled_between(const CpuReading& before, const CpuReading& after) {
  const auto throttled = growth(before.throttled_periods, after.throttled_periods);
  return throttled && *throttled > 0;
}

}  // namespace flightrec::recorder::containers
