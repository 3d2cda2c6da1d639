#include "flightrec/store/ring.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

#include "flightrec/store/block.h"
#include "flightrec/store/detail/ring_state.h"

namespace flightrec::store {
namespace {

const RingOptions& validated(const RingOptions& options) {
  if (options.rate.count() <= 0) throw std::invalid_argument("store: rate must be positive");
  if (options.duration < options.rate) {
    throw std::invalid_argument("store: buffer.duration must be at least one tick");
  }
  if (options.block_frames == 0 || options.block_frames > kMaxBlockFrames) {
    throw std::invalid_argument("store: block_frames must be in 1.." +
                                std::to_string(kMaxBlockFrames));
  }
  if (options.series > kMaxBlockSeries) {
    throw std::invalid_argument("store: more than " + std::to_string(kMaxBlockSeries) + " series");
  }
  return options;
}

}  // namespace

Ring::Ring(const RingOptions& options)
    : options_(validated(options)),
      max_span_ticks_(static_cast<uint64_t>(options.duration / options.rate)),
      open_(std::make_shared<detail::OpenRows>(options.block_frames, options.series)) {
  auto state = std::make_shared<detail::RingState>();
  state->open = open_;
  state->rate_ns = options.rate.count();
  published_ = std::move(state);
}

Ring::~Ring() = default;

bool Ring::append(const sampler::FrameHeader& header, std::span<const int64_t> values) {
  if (values.size() != options_.series) {
    throw std::invalid_argument("store: frame has " + std::to_string(values.size()) +
                                " values, schema has " + std::to_string(options_.series));
  }
  if (any_appended_ && header.tick <= last_tick_) {
    rejected_frames_.fetch_add(1, std::memory_order_relaxed);
    return false;
  }
  any_appended_ = true;
  last_tick_ = header.tick;

  // A block never spans more than seal_after, so a long pause in sampling starts a new block.
  if (open_->count.load(std::memory_order_relaxed) > 0 &&
      header.mono_ns - open_first_mono_ns_ >= options_.seal_after.count()) {
    seal();
  }
  detail::OpenRows& rows = *open_;
  const uint32_t row = rows.count.load(std::memory_order_relaxed);
  if (row == 0) open_first_mono_ns_ = header.mono_ns;
  rows.headers[row] = header;
  std::copy(values.begin(), values.end(),
            rows.values.begin() + static_cast<ptrdiff_t>(size_t{row} * values.size()));
  rows.count.store(row + 1, std::memory_order_release);
  if (row + 1 == options_.block_frames) seal();
  return true;
}

void Ring::seal() {
  const uint32_t frames = open_->count.load(std::memory_order_relaxed);
  if (frames == 0) return;
  auto block = Block::encode(std::span(open_->headers).first(frames),
                             std::span(open_->values).first(size_t{frames} * options_.series),
                             options_.series, options_.rate.count());

  // Only this thread replaces published_, so reading it here needs no lock.
  const detail::RingState& previous = *published_;
  auto next = std::make_shared<detail::RingState>();
  next->rate_ns = previous.rate_ns;
  next->stats.dropped_blocks = previous.stats.dropped_blocks;
  uint64_t bytes = block->memory_bytes();
  size_t keep_from = previous.blocks.size();
  // Walk back from the newest block while the bounds still allow the older one.
  while (keep_from > 0) {
    const Block& older = *previous.blocks[keep_from - 1];
    const uint64_t span_ticks = block->last_tick() - older.first_tick() + 1;
    if (span_ticks > max_span_ticks_ || bytes + older.memory_bytes() > options_.max_bytes) break;
    bytes += older.memory_bytes();
    --keep_from;
  }
  next->stats.dropped_blocks += keep_from;
  next->blocks.reserve(previous.blocks.size() - keep_from + 1);
  next->blocks.assign(previous.blocks.begin() + static_cast<ptrdiff_t>(keep_from),
                      previous.blocks.end());
  const uint64_t newest_span = block->last_tick() - block->first_tick() + 1;
  if (newest_span <= max_span_ticks_ && block->memory_bytes() <= options_.max_bytes) {
    next->blocks.push_back(std::move(block));
  } else {
    ++next->stats.dropped_blocks;  // a single block beyond the bounds is not kept at all
  }
  const uint64_t dropped = next->stats.dropped_blocks;
  next->stats = measure(next->blocks);
  next->stats.dropped_blocks = dropped;

  open_ = std::make_shared<detail::OpenRows>(options_.block_frames, options_.series);
  next->open = open_;
  publish(std::move(next));
}

void Ring::publish(std::shared_ptr<const detail::RingState> state) {
  std::shared_ptr<const detail::RingState> retired;  // released outside the lock
  const std::lock_guard lock(published_mutex_);
  retired = std::exchange(published_, std::move(state));
}

Snapshot Ring::snapshot() const {
  std::shared_ptr<const detail::RingState> state;
  {
    const std::lock_guard lock(published_mutex_);
    state = published_;
  }
  const uint32_t open_frames = state->open->count.load(std::memory_order_acquire);
  return Snapshot(std::move(state), open_frames);
}

}  // namespace flightrec::store
