#include "flightrec/store/snapshot.h"

#include "flightrec/store/detail/ring_state.h"

namespace flightrec::store {

std::span<const std::shared_ptr<const Block>> Snapshot::sealed() const noexcept {
  if (!state_) return {};
  return state_->blocks;
}

std::shared_ptr<const Block> Snapshot::encode_open() const {
  if (!state_ || open_frames_ == 0) return nullptr;
  const detail::OpenRows& rows = *state_->open;
  return Block::encode(std::span(rows.headers).first(open_frames_),
                       std::span(rows.values).first(size_t{open_frames_} * rows.series),
                       rows.series, state_->rate_ns);
}

std::vector<std::shared_ptr<const Block>> Snapshot::blocks() const {
  const auto sealed_blocks = sealed();
  std::vector<std::shared_ptr<const Block>> all(sealed_blocks.begin(), sealed_blocks.end());
  if (auto open = encode_open()) all.push_back(std::move(open));
  return all;
}

RingStats Snapshot::stats() const noexcept {
  if (!state_) return {};
  RingStats stats = state_->stats;
  stats.open_frames = open_frames_;
  return stats;
}

}  // namespace flightrec::store
