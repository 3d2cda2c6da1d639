#include "flightrec/store/process_ring.h"

#include <stdexcept>

namespace flightrec::store {

namespace {

uint64_t rows_of(const process::ProcessFrame& frame) {
  return frame.processes.size() + frame.sockets.size();
}

// An upper bound on what a frame adds to a block's uncompressed payload when coded whole (a
// keyframe; later frames code only changes): fixed fields plus every string.
uint64_t payload_bound(const process::ProcessFrame& frame) {
  constexpr uint64_t kFixedRowBytes =
      256;  // every numeric field as a 10-byte varint, flags, lengths
  uint64_t bytes = 64 + rows_of(frame) * kFixedRowBytes;
  for (const auto& row : frame.processes) {
    bytes += row.comm.size() + row.cmdline.size() + row.cgroup.size() + row.container_id.size() +
             row.net_device.size();
  }
  for (const auto& socket : frame.sockets) bytes += socket.local.size() + socket.remote.size();
  return bytes;
}

}  // namespace

ProcessRing::ProcessRing(const ProcessRingOptions& options) : options_(options) {
  if (options.frames_per_block == 0 || options.frames_per_block > kMaxProcessBlockFrames) {
    throw std::invalid_argument("ProcessRing: frames_per_block " +
                                std::to_string(options.frames_per_block) + " is not in 1.." +
                                std::to_string(kMaxProcessBlockFrames));
  }
}

Status ProcessRing::push(Frame frame) {
  if (Status follows = ProcessBlock::check_frame(frame, last_time_ns_); !follows) {
    const std::lock_guard lock(mutex_);
    ++rejected_frames_;
    return follows;
  }
  const uint64_t bound = payload_bound(frame);
  if (bound > kMaxProcessPayloadBytes) {
    const std::lock_guard lock(mutex_);
    ++rejected_frames_;
    return Error{"a frame of " + std::to_string(frame.processes.size()) + " processes and " +
                 std::to_string(frame.sockets.size()) + " sockets needs up to " +
                 std::to_string(bound) + " bytes, more than a process block holds (" +
                 std::to_string(kMaxProcessPayloadBytes) + "): lower processes.max_count"};
  }
  // A block has a row and a byte bound: a few huge frames are sealed before they would cross it.
  if (open_rows_ + rows_of(frame) > kMaxProcessBlockRows ||
      open_bytes_ + bound > kMaxProcessPayloadBytes) {
    seal();
  }
  last_time_ns_ = frame.time_unix_ns;
  open_rows_ += rows_of(frame);
  open_bytes_ += bound;
  auto shared = std::make_shared<const Frame>(std::move(frame));
  size_t open_count = 0;
  {
    const std::lock_guard lock(mutex_);
    open_.push_back(shared);
    latest_ = std::move(shared);
    open_count = open_.size();
  }
  if (open_count >= options_.frames_per_block) seal();
  return {};
}

void ProcessRing::seal() {
  OpenFrames frames;
  {
    const std::lock_guard lock(mutex_);
    frames = open_;
  }
  if (frames.empty()) return;
  // Encoded outside the lock: readers meanwhile still find these frames in open_.
  auto block = ProcessBlock::encode(frames);
  const std::lock_guard lock(mutex_);
  open_.erase(open_.begin(), open_.begin() + static_cast<std::ptrdiff_t>(frames.size()));
  open_rows_ = 0;
  open_bytes_ = 0;
  sealed_bytes_ += block->memory_bytes();
  sealed_frames_ += block->frames();
  sealed_.push_back(std::move(block));
  enforce_bounds();
}

void ProcessRing::enforce_bounds() {
  const auto duration_ns = options_.duration.count();
  while (!sealed_.empty()) {
    const auto& oldest = sealed_.front();
    // Unsigned: hostile clocks (a jump back by decades) must not overflow.
    const auto span =
        static_cast<uint64_t>(last_time_ns_) - static_cast<uint64_t>(oldest->first_time_ns());
    if (span <= static_cast<uint64_t>(duration_ns) && sealed_bytes_ <= options_.max_bytes) break;
    sealed_bytes_ -= oldest->memory_bytes();
    sealed_frames_ -= oldest->frames();
    ++dropped_blocks_;
    dropped_frames_ += oldest->frames();
    sealed_.erase(sealed_.begin());
  }
}

ProcessRing::Blocks ProcessRing::blocks() const {
  Blocks out;
  OpenFrames open;
  {
    const std::lock_guard lock(mutex_);
    out = sealed_;
    open = open_;
  }
  if (!open.empty()) out.push_back(ProcessBlock::encode(open));
  return out;
}

std::vector<ProcessRing::Frame> ProcessRing::frames_between(int64_t from_ns, int64_t to_ns) const {
  Blocks sealed;
  OpenFrames open;
  {
    const std::lock_guard lock(mutex_);
    sealed = sealed_;
    open = open_;
  }
  std::vector<Frame> out;
  for (const auto& block : sealed) {
    if (block->last_time_ns() < from_ns || block->first_time_ns() > to_ns) continue;
    block->for_each_frame([&](const Frame& frame) {
      if (frame.time_unix_ns >= from_ns && frame.time_unix_ns <= to_ns) out.push_back(frame);
      return frame.time_unix_ns <= to_ns;
    });
  }
  for (const auto& frame : open) {
    if (frame->time_unix_ns >= from_ns && frame->time_unix_ns <= to_ns) out.push_back(*frame);
  }
  return out;
}

std::shared_ptr<const ProcessRing::Frame> ProcessRing::latest() const {
  const std::lock_guard lock(mutex_);
  return latest_;
}

ProcessRingStats ProcessRing::stats() const {
  const std::lock_guard lock(mutex_);
  ProcessRingStats stats{.frames = sealed_frames_ + open_.size(),
                         .blocks = sealed_.size(),
                         .bytes = sealed_bytes_,
                         .dropped_blocks = dropped_blocks_,
                         .dropped_frames = dropped_frames_,
                         .rejected_frames = rejected_frames_};
  if (!sealed_.empty()) {
    stats.first_time_ns = sealed_.front()->first_time_ns();
  } else if (!open_.empty()) {
    stats.first_time_ns = open_.front()->time_unix_ns;
  }
  if (stats.frames > 0) stats.last_time_ns = latest_->time_unix_ns;
  return stats;
}

}  // namespace flightrec::store
