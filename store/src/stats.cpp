#include "flightrec/store/stats.h"

#include "flightrec/store/block.h"

namespace flightrec::store {

RingStats measure(std::span<const std::shared_ptr<const Block>> blocks) {
  RingStats stats;
  for (const auto& block : blocks) {
    ++stats.blocks;
    stats.frames += block->frames();
    stats.values += block->values();
    stats.bytes += block->memory_bytes();
    stats.encoded_bytes += block->bytes().size();
  }
  if (!blocks.empty()) {
    stats.first_tick = blocks.front()->first_tick();
    stats.last_tick = blocks.back()->last_tick();
    stats.first_real_ns = blocks.front()->real_ns(stats.first_tick);
    stats.last_real_ns = blocks.back()->real_ns(stats.last_tick);
  }
  return stats;
}

}  // namespace flightrec::store
