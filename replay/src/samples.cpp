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
    for (const uint64_t tick : ticks) {
      times_.push_back(block->real_ns(tick));
      mono_times_.push_back(block->mono_ns(tick));
    }
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

size_t Samples::block_of(size_t index) const {
  const auto after = std::upper_bound(block_first_.begin(), block_first_.end(), index);
  return static_cast<size_t>(after - block_first_.begin()) - 1;
}

const std::vector<int64_t>& Samples::column(size_t index, uint32_t series, size_t& row) const {
  const size_t block = block_of(index);
  auto& column = decoded(block).columns[series];
  if (column.empty()) blocks_[block]->decode_series(series, column);
  row = index - block_first_[block];
  return column;
}

std::optional<double> Samples::value(size_t index, uint32_t series) const {
  if (index >= times_.size()) return std::nullopt;
  if (series >= blocks_[block_of(index)]->series() || series >= scales_.size()) {
    return std::nullopt;
  }
  size_t row = 0;
  const int64_t stored = column(index, series, row)[row];
  if (stored == sampler::kAbsent) return std::nullopt;
  return static_cast<double>(stored) * scales_[series];
}

void Samples::raw(size_t index, std::vector<int64_t>& out) const {
  out.assign(scales_.size(), sampler::kAbsent);
  if (index >= times_.size()) return;
  const auto series = std::min<size_t>(out.size(), blocks_[block_of(index)]->series());
  for (uint32_t s = 0; s < series; ++s) {
    size_t row = 0;
    out[s] = column(index, s, row)[row];
  }
}

}  // namespace flightrec::replay
