#include "flightrec/sampler/sampler_stats.h"

#include <algorithm>

namespace flightrec::sampler {

void LatenessHistogram::observe(int64_t lateness_ns) noexcept {
  const int64_t us = lateness_ns / 1000;
  const auto it = std::lower_bound(kLatenessBoundsUs.begin(), kLatenessBoundsUs.end(), us);
  const auto index = static_cast<size_t>(it - kLatenessBoundsUs.begin());
  buckets[index].fetch_add(1, std::memory_order_relaxed);
  sum_ns.fetch_add(static_cast<uint64_t>(std::max<int64_t>(lateness_ns, 0)),
                   std::memory_order_relaxed);
}

int64_t LatenessHistogram::quantile_upper_bound_ns(double q) const noexcept {
  uint64_t total = 0;
  for (const auto& b : buckets) total += b.load(std::memory_order_relaxed);
  if (total == 0) return -1;
  const auto rank = static_cast<uint64_t>(q * static_cast<double>(total));
  uint64_t seen = 0;
  for (size_t i = 0; i < buckets.size(); ++i) {
    seen += buckets[i].load(std::memory_order_relaxed);
    if (seen > rank || seen == total) {
      return i < kLatenessBoundsUs.size() ? kLatenessBoundsUs[i] * 1000 : INT64_MAX;
    }
  }
  return INT64_MAX;
}

}  // namespace flightrec::sampler
