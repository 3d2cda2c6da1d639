#include "flightrec/store/container_ring.h"

#include <algorithm>

#include "flightrec/container/frame/container_frame_codec.h"

namespace flightrec::store {

Status ContainerRing::push(const container::ContainerFrame& frame) {
  if (frame.time_unix_ns < last_time_ns_) {
    const std::lock_guard lock(mutex_);
    ++rejected_frames_;
    return Error{"container frame at " + std::to_string(frame.time_unix_ns) +
                 " ns is before the previous one (" + std::to_string(last_time_ns_) +
                 " ns): the clock went back"};
  }
  auto stored = std::make_shared<StoredContainerFrame>(StoredContainerFrame{
      .time_unix_ns = frame.time_unix_ns, .bytes = container::encode_container_frame(frame)});
  if (stored->bytes.size() > options_.max_bytes) {
    const std::lock_guard lock(mutex_);
    ++rejected_frames_;
    return Error{"a container frame of " + std::to_string(frame.containers.size()) +
                 " containers takes " + std::to_string(stored->bytes.size()) +
                 " bytes, more than the whole ring holds (" + std::to_string(options_.max_bytes) +
                 "): raise buffer.max_bytes or lower containers.max"};
  }
  last_time_ns_ = frame.time_unix_ns;
  const std::lock_guard lock(mutex_);
  bytes_ += stored->bytes.size();
  frames_.push_back(std::move(stored));
  enforce_bounds();
  return {};
}

void ContainerRing::enforce_bounds() {
  const auto duration_ns = static_cast<uint64_t>(options_.duration.count());
  while (!frames_.empty()) {
    const auto& oldest = frames_.front();
    // Unsigned: hostile clocks (a jump by decades) must not overflow.
    const auto span =
        static_cast<uint64_t>(last_time_ns_) - static_cast<uint64_t>(oldest->time_unix_ns);
    if (span <= duration_ns && bytes_ <= options_.max_bytes) break;
    bytes_ -= oldest->bytes.size();
    ++dropped_frames_;
    frames_.pop_front();
  }
}

ContainerFrameList ContainerRing::frames() const {
  const std::lock_guard lock(mutex_);
  return {frames_.begin(), frames_.end()};
}

ContainerFrameList ContainerRing::frames_between(int64_t from_ns, int64_t to_ns) const {
  const std::lock_guard lock(mutex_);
  const auto first =
      std::lower_bound(frames_.begin(), frames_.end(), from_ns,
                       [](const auto& frame, int64_t time) { return frame->time_unix_ns < time; });
  ContainerFrameList out;
  for (auto it = first; it != frames_.end() && (*it)->time_unix_ns <= to_ns; ++it) {
    out.push_back(*it);
  }
  return out;
}

std::shared_ptr<const StoredContainerFrame> ContainerRing::latest() const {
  const std::lock_guard lock(mutex_);
  return frames_.empty() ? nullptr : frames_.back();
}

ContainerRingStats ContainerRing::stats() const {
  const std::lock_guard lock(mutex_);
  ContainerRingStats stats{.frames = frames_.size(),
                           .bytes = bytes_,
                           .dropped_frames = dropped_frames_,
                           .rejected_frames = rejected_frames_};
  if (!frames_.empty()) {
    stats.first_time_ns = frames_.front()->time_unix_ns;
    stats.last_time_ns = frames_.back()->time_unix_ns;
  }
  return stats;
}

}  // namespace flightrec::store
