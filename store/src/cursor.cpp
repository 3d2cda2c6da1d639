#include "flightrec/store/cursor.h"

#include <algorithm>
#include <utility>

namespace flightrec::store {
namespace {

bool overlaps(const Block& block, TimeRange range) {
  return block.real_ns(block.first_tick()) <= range.to_real_ns &&
         block.real_ns(block.last_tick()) >= range.from_real_ns;
}

}  // namespace

Cursor::Cursor(std::vector<std::shared_ptr<const Block>> blocks, TimeRange range)
    : blocks_(std::move(blocks)), range_(range) {}

void Cursor::load(size_t block_index) {
  block_index_ = block_index;
  ticks_.clear();
  const Block& current = block();
  if (!overlaps(current, range_)) return;
  current.decode_ticks(ticks_);
  const size_t frames = ticks_.size();
  columns_.resize(size_t{current.series()} * frames);
  for (uint32_t s = 0; s < current.series(); ++s) {
    current.decode_series(s, std::span(columns_).subspan(size_t{s} * frames, frames));
  }
}

bool Cursor::next() {
  size_t row = row_ + 1;
  if (!started_) {
    if (blocks_.empty()) return false;
    started_ = true;
    load(0);
    row = 0;
  }
  for (;;) {
    for (; row < ticks_.size(); ++row) {
      if (range_.contains(block().real_ns(ticks_[row]))) {
        row_ = row;
        return true;
      }
    }
    if (block_index_ + 1 >= blocks_.size()) return false;
    load(block_index_ + 1);
    row = 0;
  }
}

void Cursor::values(std::span<int64_t> out) const noexcept {
  const size_t frames = ticks_.size();
  const size_t count = std::min<size_t>(out.size(), series());
  for (size_t s = 0; s < count; ++s) out[s] = columns_[s * frames + row_];
}

void read_series(std::span<const std::shared_ptr<const Block>> blocks, uint32_t series_index,
                 TimeRange range, std::vector<uint64_t>& ticks, std::vector<int64_t>& values) {
  std::vector<uint64_t> block_ticks;
  std::vector<int64_t> block_values;
  for (const auto& block : blocks) {
    if (!overlaps(*block, range)) continue;
    block->decode_ticks(block_ticks);
    block->decode_series(series_index, block_values);
    for (size_t i = 0; i < block_ticks.size(); ++i) {
      if (!range.contains(block->real_ns(block_ticks[i]))) continue;
      ticks.push_back(block_ticks[i]);
      values.push_back(block_values[i]);
    }
  }
}

}  // namespace flightrec::store
