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
  // The monotonic clock of each sample, which rates are taken over (as the recorder takes them).
  [[nodiscard]] const std::vector<int64_t>& mono_times() const noexcept { return mono_times_; }
  // The series' value at sample `index` in base units; nothing when the source could not read it.
  [[nodiscard]] std::optional<double> value(size_t index, uint32_t series) const;
  // Every series' stored value at sample `index` into `out` (sampler::kAbsent where the source
  // could not read it): the frame as the recorder saw it, for the model's signals.
  void raw(size_t index, std::vector<int64_t>& out) const;

 private:
  struct Decoded {
    size_t block = SIZE_MAX;
    std::vector<std::vector<int64_t>> columns;  // empty until decoded
  };
  Decoded& decoded(size_t block) const;
  // The decoded column of `series` in the block holding sample `index`, and the row there.
  const std::vector<int64_t>& column(size_t index, uint32_t series, size_t& row) const;
  [[nodiscard]] size_t block_of(size_t index) const;

  std::vector<std::shared_ptr<const store::Block>> blocks_;
  std::vector<double> scales_;
  std::vector<int64_t> times_;
  std::vector<int64_t> mono_times_;
  std::vector<size_t> block_first_;  // sample index of each block's first frame
  mutable std::array<Decoded, 2> cache_;
  mutable size_t next_slot_ = 0;
};

}  // namespace flightrec::replay
