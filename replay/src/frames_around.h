#pragma once
// The frames a view at one time compares, for frames of any tier (each with a time_unix_ns, oldest
// first): the newest at or before the time, and the one about `interval_ns` before that, so a rate
// covers the interval the user chose whatever the tier's rate. The Containers tab uses it on its
// frames; ProcessHistory::around applies the same rule to process frames still in their blocks.
#include <algorithm>
#include <cstdint>
#include <vector>

namespace flightrec::replay {

template <typename Frame>
struct FramesAround {
  const Frame* frame = nullptr;     // newest at or before the time; null when none is
  const Frame* previous = nullptr;  // at least `interval_ns` before it, else the frame before it
};

template <typename Frame>
FramesAround<Frame> frames_around(const std::vector<Frame>& frames, int64_t time_ns,
                                  int64_t interval_ns) {
  FramesAround<Frame> around;
  const auto newest_at_or_before = [&](int64_t t) {
    return std::upper_bound(frames.begin(), frames.end(), t,
                            [](int64_t value, const Frame& f) { return value < f.time_unix_ns; });
  };
  const auto after = newest_at_or_before(time_ns);
  if (after == frames.begin()) return around;
  const auto current = after - 1;
  around.frame = &*current;
  if (current != frames.begin()) {
    auto start = newest_at_or_before(current->time_unix_ns - std::max<int64_t>(interval_ns, 0));
    if (start == frames.begin()) start = current;  // nothing that far back: the frame before
    around.previous = &*std::min(start - 1, current - 1);
  }
  return around;
}

}  // namespace flightrec::replay
