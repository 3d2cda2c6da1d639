#pragma once
// An immutable view of the ring at one moment, cheap to take and safe to hold on any thread:
// blocks that leave the ring afterwards stay alive for as long as the snapshot does.
#include <cstdint>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "flightrec/store/block.h"
#include "flightrec/store/stats.h"

namespace flightrec::store {

namespace detail {
struct RingState;
}

class Snapshot {
 public:
  Snapshot() = default;  // empty

  // Sealed blocks, oldest first.
  [[nodiscard]] std::span<const std::shared_ptr<const Block>> sealed() const noexcept;
  // Frames appended after the last seal, as of the snapshot.
  [[nodiscard]] uint32_t open_frames() const noexcept { return open_frames_; }
  // Those frames encoded into a block on the calling thread; null when there are none.
  [[nodiscard]] std::shared_ptr<const Block> encode_open() const;
  // Everything the snapshot holds: sealed() followed by encode_open() when it is not null.
  [[nodiscard]] std::vector<std::shared_ptr<const Block>> blocks() const;
  [[nodiscard]] RingStats stats() const noexcept;

 private:
  friend class Ring;
  Snapshot(std::shared_ptr<const detail::RingState> state, uint32_t open_frames)
      : state_(std::move(state)), open_frames_(open_frames) {}

  std::shared_ptr<const detail::RingState> state_;
  uint32_t open_frames_ = 0;
};

}  // namespace flightrec::store
