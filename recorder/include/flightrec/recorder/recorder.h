#pragma once
// The recorder thread: drains frames from the sampler's queue into the ring. It is the only
// writer of the ring, so the sampler never waits on compression and readers never wait on it.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <vector>

#include "flightrec/common/stop_signal.h"
#include "flightrec/sampler/frame_queue.h"
#include "flightrec/store/ring.h"

namespace flightrec::recorder {

class Recorder {
 public:
  Recorder(sampler::FrameQueue& queue, store::Ring& ring);

  // Drains until `stop` is requested, then drains what is left and seals the open block so
  // readers see every recorded frame. Wakes every `poll_interval` when the queue is empty.
  void run(const StopSignal& stop,
           std::chrono::milliseconds poll_interval = std::chrono::milliseconds(2));

  // Moves every frame waiting in the queue into the ring; returns how many.
  size_t drain();

  [[nodiscard]] uint64_t frames_recorded() const noexcept {
    return frames_.load(std::memory_order_relaxed);
  }

 private:
  sampler::FrameQueue& queue_;
  store::Ring& ring_;
  std::vector<int64_t> values_;
  std::atomic<uint64_t> frames_{0};
};

}  // namespace flightrec::recorder
