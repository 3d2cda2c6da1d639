#pragma once
// What the ring publishes to readers: shared between ring.cpp and snapshot.cpp only.
#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "flightrec/sampler/frame.h"
#include "flightrec/store/block.h"
#include "flightrec/store/stats.h"

namespace flightrec::store::detail {

// The frames of the block being filled, row-major. The writer fills row `count` and then
// publishes count + 1 with release order; rows below a count a reader has acquired are never
// written again (a sealed block gets a fresh OpenRows), so readers copy them without a lock.
struct OpenRows {
  OpenRows(uint32_t capacity, uint32_t series_count)
      : headers(capacity), values(size_t{capacity} * series_count), series(series_count) {}
  std::vector<sampler::FrameHeader> headers;
  std::vector<int64_t> values;
  uint32_t series;
  std::atomic<uint32_t> count{0};
};

// One immutable version of the ring: replaced as a whole at every seal.
struct RingState {
  std::vector<std::shared_ptr<const Block>> blocks;  // oldest first
  std::shared_ptr<const OpenRows> open;
  RingStats stats;  // of `blocks`; open_frames is filled in by the snapshot
  int64_t rate_ns = 0;
};

}  // namespace flightrec::store::detail
