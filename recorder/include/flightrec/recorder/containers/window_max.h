#pragma once
// The largest value seen over a sliding window (export.window), in a fixed number of buckets so
// its memory does not grow with the read rate: the spike of one CFS period that a mean over the
// window hides. The window is passed on each call, as a configuration reload may change it.
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>

namespace flightrec::recorder::containers {

class WindowMax {
 public:
  // Buckets of window / (kBuckets - 1) each: the maximum covers the window and at most one
  // bucket's width (about 3 %) before it.
  static constexpr size_t kBuckets = 33;

  // A value seen at `at_ns`; times must not go backwards.
  void add(int64_t at_ns, double value, int64_t window_ns);

  // The largest value added within `window_ns` before `now_ns`; nothing when none was.
  [[nodiscard]] std::optional<double> max(int64_t now_ns, int64_t window_ns) const;

 private:
  struct Bucket {
    int64_t first_ns = std::numeric_limits<int64_t>::min();
    int64_t last_ns = std::numeric_limits<int64_t>::min();
    double max = 0;
  };
  std::array<Bucket, kBuckets> buckets_{};
  size_t newest_ = 0;
  bool empty_ = true;
};

}  // namespace flightrec::recorder::containers
