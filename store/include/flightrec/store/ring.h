#pragma once
// The bounded in-memory recording: frames go into an open block, which is sealed into an immutable
// compressed Block once it holds `block_frames` frames, or before it would span `seal_after` of
// monotonic time; the oldest blocks are dropped while the ring spans more than `duration` or holds
// more than `max_bytes`. One writer (the recorder thread) appends; any number of readers take
// snapshots, which include the open block's frames, without ever waiting for an encode (they share
// a mutex held only to copy one pointer).
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>

#include "flightrec/sampler/frame.h"
#include "flightrec/store/snapshot.h"
#include "flightrec/store/stats.h"

namespace flightrec::store {

namespace detail {
struct OpenRows;
struct RingState;
}  // namespace detail

struct RingOptions {
  uint32_t series = 0;  // values per frame, fixed by the schema
  std::chrono::nanoseconds rate = std::chrono::milliseconds(1);  // tick period
  std::chrono::nanoseconds duration = std::chrono::minutes(10);  // buffer.duration
  uint64_t max_bytes = 256ull << 20;                             // buffer.max_bytes
  uint32_t block_frames = 256;
  std::chrono::nanoseconds seal_after = std::chrono::seconds(1);
};

class Ring {
 public:
  // Throws std::invalid_argument for options no ring can honour (zero rate, block_frames out of
  // 1..kMaxBlockFrames, too many series).
  explicit Ring(const RingOptions& options);
  ~Ring();
  Ring(const Ring&) = delete;
  Ring& operator=(const Ring&) = delete;

  // Writer thread only. Adds one frame of exactly options.series values (else
  // std::invalid_argument, a caller bug). A frame whose tick does not follow the previous one is
  // dropped and counted in rejected_frames(); returns whether the frame was stored.
  bool append(const sampler::FrameHeader& header, std::span<const int64_t> values);
  // Writer thread only: seals the open block now (shutdown, before an incident is cut).
  void seal();

  // Any thread.
  [[nodiscard]] Snapshot snapshot() const;
  [[nodiscard]] RingStats stats() const { return snapshot().stats(); }
  [[nodiscard]] uint64_t rejected_frames() const noexcept {
    return rejected_frames_.load(std::memory_order_relaxed);
  }
  [[nodiscard]] const RingOptions& options() const noexcept { return options_; }

 private:
  void publish(std::shared_ptr<const detail::RingState> state);

  const RingOptions options_;
  const uint64_t max_span_ticks_;

  // Writer-side state.
  std::shared_ptr<detail::OpenRows> open_;
  int64_t open_first_mono_ns_ = 0;
  bool any_appended_ = false;
  uint64_t last_tick_ = 0;
  std::atomic<uint64_t> rejected_frames_{0};

  // The published state. The writer replaces it under the mutex; readers copy it under the mutex.
  mutable std::mutex published_mutex_;
  std::shared_ptr<const detail::RingState> published_;
};

}  // namespace flightrec::store
