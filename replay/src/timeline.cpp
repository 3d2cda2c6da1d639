#include "flightrec/replay/timeline.h"

#include <algorithm>
#include <stdexcept>

namespace flightrec::replay {

Timeline::Timeline(std::vector<int64_t> times) : times_(std::move(times)) {}

size_t Timeline::at_or_before(int64_t time_ns) const {
  const auto after = std::upper_bound(times_.begin(), times_.end(), time_ns);
  if (after == times_.begin()) return 0;
  return static_cast<size_t>(after - times_.begin()) - 1;
}

size_t Timeline::step(size_t index, int64_t samples) const {
  if (times_.empty()) return 0;
  const int64_t last = static_cast<int64_t>(times_.size()) - 1;
  return static_cast<size_t>(std::clamp(static_cast<int64_t>(index) + samples, int64_t{0}, last));
}

size_t Timeline::step_time(size_t index, int64_t delta_ns) const {
  if (times_.empty() || delta_ns == 0) return index;
  const size_t target = at_or_before(times_.at(index) + delta_ns);
  if (delta_ns > 0) return std::max(target, step(index, 1));
  return std::min(target, step(index, -1));
}

std::optional<size_t> Timeline::interval_start(size_t index, int64_t interval_ns) const {
  if (index == 0 || index >= times_.size()) return std::nullopt;
  if (interval_ns <= 0) return index - 1;
  // Near the start of the window the rate covers what there is (the view reports how much).
  return std::min(at_or_before(times_[index] - interval_ns), index - 1);
}

}  // namespace flightrec::replay
