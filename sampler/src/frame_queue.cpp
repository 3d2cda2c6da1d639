#include "flightrec/sampler/frame_queue.h"

#include <array>
#include <bit>

namespace flightrec::sampler {

FrameQueue::FrameQueue(size_t values_per_frame, size_t capacity_frames)
    : values_(values_per_frame), words_((kHeaderWords + values_per_frame) * capacity_frames) {}

bool FrameQueue::push(const FrameHeader& header, std::span<const int64_t> values) noexcept {
  // The single producer may trust write_available(): the consumer can only make it grow.
  if (words_.write_available() < kHeaderWords + values_) return false;
  const std::array<int64_t, kHeaderWords> head{std::bit_cast<int64_t>(header.tick), header.mono_ns,
                                               header.real_ns};
  words_.push(head.data(), head.size());
  words_.push(values.data(), values_);
  return true;
}

bool FrameQueue::pop(FrameHeader& header, std::span<int64_t> values) noexcept {
  // Frames are pushed whole, so a whole header implies its values are there too.
  if (words_.read_available() < kHeaderWords + values_) return false;
  std::array<int64_t, kHeaderWords> head{};
  words_.pop(head.data(), head.size());
  words_.pop(values.data(), values_);
  header.tick = std::bit_cast<uint64_t>(head[0]);
  header.mono_ns = head[1];
  header.real_ns = head[2];
  return true;
}

}  // namespace flightrec::sampler
