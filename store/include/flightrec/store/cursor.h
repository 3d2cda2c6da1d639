#pragma once
// Reading stored frames back: frame by frame (Cursor) or one series at a time (read_series), over
// any list of blocks (Snapshot::blocks(), a parsed incident), restricted to a time range.
#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <vector>

#include "flightrec/store/block.h"

namespace flightrec::store {

// Inclusive range of CLOCK_REALTIME nanoseconds, as given by Block::real_ns(tick).
struct TimeRange {
  int64_t from_real_ns = std::numeric_limits<int64_t>::min();
  int64_t to_real_ns = std::numeric_limits<int64_t>::max();
  [[nodiscard]] bool contains(int64_t real_ns) const noexcept {
    return real_ns >= from_real_ns && real_ns <= to_real_ns;
  }
};

class Cursor {
 public:
  explicit Cursor(std::vector<std::shared_ptr<const Block>> blocks, TimeRange range = {});

  // Moves to the next frame in range (the first one on the first call); false when there is none.
  bool next();

  // The current frame; valid after next() returned true.
  [[nodiscard]] uint64_t tick() const noexcept { return ticks_[row_]; }
  [[nodiscard]] int64_t real_ns() const noexcept { return block().real_ns(tick()); }
  [[nodiscard]] int64_t mono_ns() const noexcept { return block().mono_ns(tick()); }
  [[nodiscard]] uint32_t series() const noexcept { return block().series(); }
  [[nodiscard]] int64_t value(uint32_t series_index) const noexcept {
    return columns_[size_t{series_index} * ticks_.size() + row_];
  }
  // Copies all series() values of the current frame into `out` (which must hold that many).
  void values(std::span<int64_t> out) const noexcept;

 private:
  [[nodiscard]] const Block& block() const noexcept { return *blocks_[block_index_]; }
  void load(size_t block_index);  // decodes the block when it overlaps the range

  std::vector<std::shared_ptr<const Block>> blocks_;
  TimeRange range_;
  size_t block_index_ = 0;
  bool started_ = false;
  size_t row_ = 0;
  std::vector<uint64_t> ticks_;
  std::vector<int64_t> columns_;  // the current block, column-major: series x frames
};

// Appends, for each frame in `range`, its tick to `ticks` and one series' value to `values`.
// Decodes only that series' column (and the ticks) of each block that overlaps the range.
void read_series(std::span<const std::shared_ptr<const Block>> blocks, uint32_t series_index,
                 TimeRange range, std::vector<uint64_t>& ticks, std::vector<int64_t>& values);

}  // namespace flightrec::store
