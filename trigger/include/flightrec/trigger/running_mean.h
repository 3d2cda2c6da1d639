#pragma once
// A rule's `over` (docs/TRIGGERS.md): the mean of one series over a trailing window of ticks,
// updated in O(1) per frame and without allocating, as the recorder thread needs.
//
// The window is kept as partial sums of whole ticks ("buckets"). Up to kMaxBuckets ticks a bucket
// is one tick and the mean is exact; a longer window is kept in kMaxBuckets buckets of several
// ticks, so memory stays bounded (64 KiB per series) and the span averaged is the window to within
// one bucket, a kMaxBuckets-th of it.
#include <cstdint>
#include <vector>

namespace flightrec::trigger {

class RunningMean {
 public:
  static constexpr uint64_t kMaxBuckets = 4096;

  // `window_ticks` >= 1.
  explicit RunningMean(uint64_t window_ticks);

  // The value at `tick` (ticks only go forward; NaN or infinite: unknown), and the mean of the
  // known values among the window's ticks. NaN until a whole window has passed since the first
  // add() (a mean over less would let one early value decide it), and when the window holds no
  // known value. Ticks without an add() (ones the sampler missed) hold no value.
  [[nodiscard]] double add(uint64_t tick, double value) noexcept;

 private:
  struct Bucket {
    double sum = 0;
    uint64_t count = 0;
  };

  // Moves the newest bucket to `bucket`, dropping the ones that leave the window.
  void advance(uint64_t bucket) noexcept;

  uint64_t bucket_ticks_;
  std::vector<Bucket> buckets_;  // a ring: bucket n lives at n % size()
  bool started_ = false;
  uint64_t first_ = 0;    // the bucket of the first add()
  uint64_t current_ = 0;  // the newest bucket
  double sum_ = 0;        // of every bucket in the ring
  uint64_t count_ = 0;
};

}  // namespace flightrec::trigger
