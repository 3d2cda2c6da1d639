#include "flightrec/trigger/running_mean.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace flightrec::trigger {

RunningMean::RunningMean(uint64_t window_ticks)
    : bucket_ticks_((std::max<uint64_t>(window_ticks, 1) + kMaxBuckets - 1) / kMaxBuckets),
      buckets_((std::max<uint64_t>(window_ticks, 1) + bucket_ticks_ - 1) / bucket_ticks_) {}

void RunningMean::advance(uint64_t bucket) noexcept {
  const uint64_t size = buckets_.size();
  if (bucket - current_ >= size) {  // a gap as long as the window: nothing in it is left
    std::fill(buckets_.begin(), buckets_.end(), Bucket{});
    sum_ = 0;
    count_ = 0;
    current_ = bucket;
    return;
  }
  while (current_ < bucket) {
    ++current_;
    const size_t slot = current_ % size;
    Bucket& leaving = buckets_[slot];
    sum_ -= leaving.sum;
    count_ -= leaving.count;
    leaving = Bucket{};
    // Subtracting what leaves would let rounding errors pile up run after run: once per lap of
    // the ring the total is summed afresh from the buckets, O(1) per bucket on average.
    if (slot == 0) {
      sum_ = 0;
      for (const Bucket& kept : buckets_) sum_ += kept.sum;
    }
  }
}

double RunningMean::add(uint64_t tick, double value) noexcept {
  const uint64_t bucket = tick / bucket_ticks_;
  if (!started_) {
    started_ = true;
    first_ = bucket;
    current_ = bucket;
  } else if (bucket > current_) {
    advance(bucket);
  }
  if (std::isfinite(value)) {
    Bucket& newest = buckets_[current_ % buckets_.size()];
    newest.sum += value;
    ++newest.count;
    sum_ += value;
    ++count_;
  }
  const bool whole_window = current_ - first_ + 1 >= buckets_.size();
  if (!whole_window || count_ == 0) return std::numeric_limits<double>::quiet_NaN();
  return sum_ / static_cast<double>(count_);
}

}  // namespace flightrec::trigger
