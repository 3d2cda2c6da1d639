#pragma once
// Random access to the system series of a recording: sample i is the i-th frame over all blocks.
// Blocks are decoded a column at a time when first asked for, and the last two blocks kept, so a
// cursor reading "now" and "one interval ago" decodes each column once.
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "flightrec/store/block.h"

namespace flightrec::replay {

class Samples {
 public:
  // `scales` turns each series' stored value into base units (recording::SeriesInfo::scale).
  Samples(std::vector<std::shared_ptr<const store::Block>> blocks, std::vector<double> scales);

  [[nodiscard]] size_t size() const noexcept { return times_.size(); }
  [[nodiscard]] const std::vector<int64_t>& times() const noexcept { return times_; }
  // The series' value at sample `index` in base units; nothing when the source could not read it.
  [[nodiscard]] std::optional<double> value(size_t index, uint32_t series) const;

 private:
  struct Decoded {
    size_t block = SIZE_MAX;
    std::vector<std::vector<int64_t>> columns;  // empty until decoded
  };
  Decoded& decoded(size_t block) const;

  std::vector<std::shared_ptr<const store::Block>> blocks_;
  std::vector<double> scales_;
  std::vector<int64_t> times_;
  std::vector<size_t> block_first_;  // sample index of each block's first frame
  mutable std::array<Decoded, 2> cache_;
  mutable size_t next_slot_ = 0;
};

}  // namespace flightrec::replay
