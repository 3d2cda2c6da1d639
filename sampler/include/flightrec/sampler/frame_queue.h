#pragma once
// Hands frames from the sampler thread to the recorder thread without locks or allocation.
// A frame travels as a fixed run of int64 words (header, then the schema's values) through a
// Boost.Lockfree spsc_queue sized at start-up. push() never blocks: when the recorder has fallen
// behind and a whole frame does not fit, the frame is dropped and push() says so.
#include <boost/lockfree/spsc_queue.hpp>
#include <cstddef>
#include <cstdint>
#include <span>

#include "flightrec/sampler/frame.h"

namespace flightrec::sampler {

class FrameQueue {
 public:
  static constexpr size_t kHeaderWords = 3;

  FrameQueue(size_t values_per_frame, size_t capacity_frames);

  [[nodiscard]] size_t values_per_frame() const noexcept { return values_; }

  // Producer side (one thread). False when the frame did not fit: nothing was written.
  bool push(const FrameHeader& header, std::span<const int64_t> values) noexcept;

  // Consumer side (one thread). False when no whole frame is waiting.
  bool pop(FrameHeader& header, std::span<int64_t> values) noexcept;

 private:
  size_t values_;
  boost::lockfree::spsc_queue<int64_t> words_;
};

}  // namespace flightrec::sampler
