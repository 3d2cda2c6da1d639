#pragma once
// Size and span of stored data, for self-metrics and for the bytes-per-value budget.
#include <cstdint>
#include <memory>
#include <span>

namespace flightrec::store {

class Block;

struct RingStats {
  uint64_t blocks = 0;         // sealed blocks in the ring
  uint64_t frames = 0;         // frames in those blocks
  uint64_t values = 0;         // frames * series: the values they hold
  uint64_t bytes = 0;          // memory the blocks hold; this is what buffer.max_bytes bounds
  uint64_t encoded_bytes = 0;  // their serialized size (what an incident file would take)
  uint64_t open_frames = 0;    // frames appended since the last seal (not in the counts above)
  // Span of the sealed blocks; all zero while there are none.
  uint64_t first_tick = 0;
  uint64_t last_tick = 0;
  int64_t first_real_ns = 0;
  int64_t last_real_ns = 0;
  uint64_t dropped_blocks = 0;  // blocks that left the ring to honour its bounds, since start

  // Encoded bytes per stored value: the compression figure the budget (<= 2) is about.
  [[nodiscard]] double bytes_per_value() const noexcept {
    return values == 0 ? 0.0 : static_cast<double>(encoded_bytes) / static_cast<double>(values);
  }
};

// Totals over any set of blocks (a snapshot, an incident): blocks, frames, values, bytes, span.
[[nodiscard]] RingStats measure(std::span<const std::shared_ptr<const Block>> blocks);

}  // namespace flightrec::store
