#pragma once
// The bounded in-memory history of the container tier: one frame per slow round, each kept
// encoded (container_frame_codec.h: a few hundred bytes per container, standalone) and dropped,
// oldest first, while the ring spans more than `duration` or holds more than `max_bytes`. One
// writer (the container tier's thread) pushes, encoding outside the lock; readers on any thread
// take the frames they want as shared, immutable encoded frames, which recordings and /dump write
// as they are.
#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "flightrec/common/result.h"
#include "flightrec/container/frame/container_frame.h"

namespace flightrec::store {

// One container frame as stored: its time, for choosing frames without decoding, and its bytes.
struct StoredContainerFrame {
  int64_t time_unix_ns = 0;
  std::string bytes;  // encode_container_frame's
};
using ContainerFrameList = std::vector<std::shared_ptr<const StoredContainerFrame>>;

struct ContainerRingOptions {
  std::chrono::nanoseconds duration = std::chrono::minutes(10);  // buffer.duration
  uint64_t max_bytes = 32ull << 20;
};

struct ContainerRingStats {
  uint64_t frames = 0;           // held now
  uint64_t bytes = 0;            // their encoded bytes: what max_bytes bounds
  uint64_t dropped_frames = 0;   // dropped by the bounds, since start
  uint64_t rejected_frames = 0;  // pushes refused (time going back, a frame beyond max_bytes)
  int64_t first_time_ns = 0;     // oldest frame held (0 when empty)
  int64_t last_time_ns = 0;      // newest frame held
};

class ContainerRing {
 public:
  explicit ContainerRing(const ContainerRingOptions& options) : options_(options) {}

  // Writer thread only. Stores the frame, or refuses it (counted in rejected_frames; the caller
  // logs the reason) when its time is before the previous frame's or it alone is more than
  // max_bytes.
  Status push(const container::ContainerFrame& frame);

  // Any thread: every frame held, oldest first.
  [[nodiscard]] ContainerFrameList frames() const;
  // Frames with from_ns <= time <= to_ns (CLOCK_REALTIME), oldest first.
  [[nodiscard]] ContainerFrameList frames_between(int64_t from_ns, int64_t to_ns) const;
  // The newest frame, null before the first push.
  [[nodiscard]] std::shared_ptr<const StoredContainerFrame> latest() const;
  [[nodiscard]] ContainerRingStats stats() const;
  [[nodiscard]] const ContainerRingOptions& options() const noexcept { return options_; }

 private:
  void enforce_bounds();  // with mutex_ held

  const ContainerRingOptions options_;
  int64_t last_time_ns_ = INT64_MIN;  // writer-side

  mutable std::mutex mutex_;
  std::deque<std::shared_ptr<const StoredContainerFrame>> frames_;  // oldest first
  uint64_t bytes_ = 0;
  uint64_t dropped_frames_ = 0;
  uint64_t rejected_frames_ = 0;
};

}  // namespace flightrec::store
