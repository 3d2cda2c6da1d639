#pragma once
// The bounded in-memory history of the process tier: frames are kept as they come, sealed into an
// immutable ProcessBlock every `frames_per_block` frames, and the oldest blocks are dropped while
// the ring spans more than `duration` or holds more than `max_bytes`. One writer (the process
// tier) pushes; readers on any thread see sealed blocks and the frames not sealed yet. A mutex
// guards the lists, never an encode (the process tier pushes a few times per second).
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "flightrec/common/result.h"
#include "flightrec/process/process_frame.h"
#include "flightrec/store/process_block.h"

namespace flightrec::store {

struct ProcessRingOptions {
  std::chrono::nanoseconds duration = std::chrono::minutes(10);  // buffer.duration
  uint64_t max_bytes = 64ull << 20;
  uint32_t frames_per_block = 8;  // 1..kMaxProcessBlockFrames
};

struct ProcessRingStats {
  uint64_t frames = 0;           // held now: in sealed blocks and not yet sealed
  uint64_t blocks = 0;           // sealed blocks held
  uint64_t bytes = 0;            // memory of the sealed blocks (the open frames are outside it)
  uint64_t dropped_blocks = 0;   // sealed blocks dropped by the bounds, since start
  uint64_t dropped_frames = 0;   // the frames in them
  uint64_t rejected_frames = 0;  // pushes refused (time going back, pids out of order)
  int64_t first_time_ns = 0;     // oldest frame held (0 when empty)
  int64_t last_time_ns = 0;      // newest frame held
};

class ProcessRing {
 public:
  using Frame = process::ProcessFrame;
  using Blocks = std::vector<std::shared_ptr<const ProcessBlock>>;

  // Throws std::invalid_argument for frames_per_block out of 1..kMaxProcessBlockFrames.
  explicit ProcessRing(const ProcessRingOptions& options);

  // Writer thread only. Stores the frame, or refuses it (counted in rejected_frames and logged by
  // the caller from the returned reason) when ProcessBlock::check_frame finds it cannot follow
  // the previous one or it is too big for a block.
  Status push(Frame frame);
  // Writer thread only: seals the frames not sealed yet now (shutdown, before an incident is cut).
  void seal();

  // Any thread. Sealed blocks and the open frames encoded on the calling thread, oldest first.
  [[nodiscard]] Blocks blocks() const;
  // Decoded frames with from_ns <= time <= to_ns, oldest first.
  [[nodiscard]] std::vector<Frame> frames_between(int64_t from_ns, int64_t to_ns) const;
  // The newest frame, null before the first push.
  [[nodiscard]] std::shared_ptr<const Frame> latest() const;
  [[nodiscard]] ProcessRingStats stats() const;
  [[nodiscard]] const ProcessRingOptions& options() const noexcept { return options_; }

 private:
  using OpenFrames = std::vector<std::shared_ptr<const Frame>>;
  void enforce_bounds();  // with mutex_ held

  const ProcessRingOptions options_;

  // Writer-side state.
  int64_t last_time_ns_ = INT64_MIN;
  uint64_t open_rows_ = 0;   // processes + sockets in open_, kept under kMaxProcessBlockRows
  uint64_t open_bytes_ = 0;  // payload_bound of open_, kept under kMaxProcessPayloadBytes

  mutable std::mutex mutex_;
  Blocks sealed_;    // oldest first
  OpenFrames open_;  // pushed, not sealed yet, oldest first
  std::shared_ptr<const Frame> latest_;
  uint64_t sealed_bytes_ = 0;
  uint64_t sealed_frames_ = 0;
  uint64_t dropped_blocks_ = 0;
  uint64_t dropped_frames_ = 0;
  uint64_t rejected_frames_ = 0;
};

}  // namespace flightrec::store
