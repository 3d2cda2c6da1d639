#include "flightrec/recorder/containers/window_max.h"

#include <algorithm>

namespace flightrec::recorder::containers {

void WindowMax::add(int64_t at_ns, double value, int64_t window_ns) {
  const int64_t width = std::max<int64_t>(window_ns / static_cast<int64_t>(kBuckets - 1), 1);
  Bucket& newest = buckets_[newest_];
  if (!empty_ && at_ns < newest.first_ns + width) {
    newest.last_ns = at_ns;
    newest.max = std::max(newest.max, value);
    return;
  }
  if (!empty_) newest_ = (newest_ + 1) % kBuckets;
  buckets_[newest_] = {.first_ns = at_ns, .last_ns = at_ns, .max = value};
  empty_ = false;
}

std::optional<double> WindowMax::max(int64_t now_ns, int64_t window_ns) const {
  std::optional<double> largest;
  for (const Bucket& bucket : buckets_) {
    if (bucket.last_ns == std::numeric_limits<int64_t>::min()) continue;
    if (bucket.last_ns <= now_ns - window_ns || bucket.first_ns > now_ns) continue;
    largest = largest ? std::max(*largest, bucket.max) : bucket.max;
  }
  return largest;
}

}  // namespace flightrec::recorder::containers
