#pragma once
// The time axis of a replay: every sample time of the recording (system frames; without them the
// process frames, else the container frames), and the moves a cursor makes over it.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace flightrec::replay {

class Timeline {
 public:
  explicit Timeline(std::vector<int64_t> times);  // ascending

  [[nodiscard]] bool empty() const noexcept { return times_.empty(); }
  [[nodiscard]] size_t size() const noexcept { return times_.size(); }
  [[nodiscard]] int64_t time(size_t index) const { return times_.at(index); }
  [[nodiscard]] int64_t start() const { return times_.front(); }
  [[nodiscard]] int64_t end() const { return times_.back(); }
  [[nodiscard]] std::span<const int64_t> times() const noexcept { return times_; }

  // The newest sample at or before `time_ns`; the first sample when `time_ns` is before it.
  [[nodiscard]] size_t at_or_before(int64_t time_ns) const;
  // `samples` samples later (negative: earlier), clamped to the window.
  [[nodiscard]] size_t step(size_t index, int64_t samples) const;
  // The sample at or before time(index) + delta_ns, but at least one sample away when moving
  // (a gap longer than delta still moves the cursor), clamped to the window.
  [[nodiscard]] size_t step_time(size_t index, int64_t delta_ns) const;
  // The sample a rate at `index` starts from: the newest one at least interval_ns before it (the
  // one before it for interval_ns <= 0, the first one when the window is shorter than that);
  // nothing at the first sample.
  [[nodiscard]] std::optional<size_t> interval_start(size_t index, int64_t interval_ns) const;

 private:
  std::vector<int64_t> times_;
};

}  // namespace flightrec::replay
