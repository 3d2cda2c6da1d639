#include "flightrec/replay/samples.h"

#include <algorithm>

#include "flightrec/sampler/series.h"

namespace flightrec::replay {

Samples::Samples(std::vector<std::shared_ptr<const store::Block>> blocks,
                 std::vector<double> scales)
    : blocks_(std::move(blocks)), scales_(std::move(scales)) {
  std::vector<uint64_t> ticks;
  for (const auto& block : blocks_) {
    block_first_.push_back(times_.size());
    block->decode_ticks(ticks);
    for (const uint64_t tick : ticks) times_.push_back(block->real_ns(tick));
  }
}

Samples::Decoded& Samples::decoded(size_t block) const {
  for (Decoded& entry : cache_) {
    if (entry.block == block) return entry;
  }
  Decoded& slot = cache_[next_slot_];
  next_slot_ = (next_slot_ + 1) % cache_.size();
  slot.block = block;
  slot.columns.assign(blocks_[block]->series(), {});
  return slot;
}

std::optional<double> Samples::value(size_t index, uint32_t series) const {
  if (index >= times_.size()) return std::nullopt;
  const auto after = std::upper_bound(block_first_.begin(), block_first_.end(), index);
  const auto block = static_cast<size_t>(after - block_first_.begin()) - 1;
  if (series >= blocks_[block]->series() || series >= scales_.size()) return std::nullopt;
  auto& column = decoded(block).columns[series];
  if (column.empty()) blocks_[block]->decode_series(series, column);
  const int64_t stored = column[index - block_first_[block]];
  if (stored == sampler::kAbsent) return std::nullopt;
  return static_cast<double>(stored) * scales_[series];
}

}  // namespace flightrec::replay
