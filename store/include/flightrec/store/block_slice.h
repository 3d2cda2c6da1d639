#pragma once
// A stretch of a block's frames as a block of its own: how a recording already written is
// continued with what the ring recorded after it (an incident extended to an alert's end), without
// repeating a frame the file holds or taking one past the wanted end.
#include <cstdint>
#include <memory>

#include "flightrec/store/block.h"
#include "flightrec/store/process_block.h"

namespace flightrec::store {

// The frames of `block` with after_ns < time <= until_ns (times on the block's grid); `block`
// itself when all its frames are inside, null when none is.
[[nodiscard]] std::shared_ptr<const Block> frames_between(const std::shared_ptr<const Block>& block,
                                                          int64_t after_ns, int64_t until_ns);

// The same for a process block, by each frame's time.
[[nodiscard]] std::shared_ptr<const ProcessBlock> process_frames_between(
    const std::shared_ptr<const ProcessBlock>& block, int64_t after_ns, int64_t until_ns);

}  // namespace flightrec::store
