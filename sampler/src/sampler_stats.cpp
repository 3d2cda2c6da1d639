#include "flightrec/sampler/sampler_stats.h"

#include <algorithm>

#include "flightrec/config/units.h"

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

void RateChangeLog::add(const RateChange& change) noexcept {
  const std::lock_guard lock(mutex_);
  ring_[total_ % kKept] = change;
  ++total_;
}

std::vector<RateChange> RateChangeLog::newest() const {
  const std::lock_guard lock(mutex_);
  const uint64_t kept = std::min<uint64_t>(total_, kKept);
  std::vector<RateChange> out;
  out.reserve(kept);
  for (uint64_t i = total_ - kept; i < total_; ++i) out.push_back(ring_[i % kKept]);
  return out;
}

uint64_t RateChangeLog::total() const noexcept {
  const std::lock_guard lock(mutex_);
  return total_;
}

std::string rate_changes_text(const SamplerStats& stats) {
  std::string text;
  for (const RateChange& change : stats.rate_changes.newest()) {
    if (!text.empty()) text += ' ';
    text += stats.sources[change.source]->name + "=" +
            config::format_duration(std::chrono::nanoseconds(change.rate_ns)) + "@" +
            std::to_string(change.real_ns);
  }
  return text;
}

}  // namespace flightrec::sampler
