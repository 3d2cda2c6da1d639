#include "flightrec/store/block_slice.h"

#include <algorithm>
#include <vector>

namespace flightrec::store {

std::shared_ptr<const Block> frames_between(const std::shared_ptr<const Block>& block,
                                            int64_t after_ns, int64_t until_ns) {
  const Block& source = *block;
  if (source.real_ns(source.first_tick()) > after_ns &&
      source.real_ns(source.last_tick()) <= until_ns) {
    return block;
  }
  if (source.real_ns(source.last_tick()) <= after_ns ||
      source.real_ns(source.first_tick()) > until_ns) {
    return nullptr;
  }
  std::vector<uint64_t> ticks;
  source.decode_ticks(ticks);
  const auto inside = [&](uint64_t tick) {
    const int64_t ns = source.real_ns(tick);
    return ns > after_ns && ns <= until_ns;
  };
  // Times grow with ticks, so the frames inside are one run.
  const auto first = std::find_if(ticks.begin(), ticks.end(), inside);
  const auto last = std::find_if_not(first, ticks.end(), inside);
  if (first == last) return nullptr;
  const auto begin = static_cast<size_t>(first - ticks.begin());
  const auto count = static_cast<size_t>(last - first);

  std::vector<sampler::FrameHeader> headers;
  headers.reserve(count);
  for (auto it = first; it != last; ++it) {
    headers.push_back(
        {.tick = *it, .mono_ns = source.mono_ns(*it), .real_ns = source.real_ns(*it)});
  }
  // Columns decode whole; the frames are stored row-major.
  const uint32_t series = source.series();
  std::vector<int64_t> values(count * series);
  std::vector<int64_t> column;
  for (uint32_t s = 0; s < series; ++s) {
    source.decode_series(s, column);
    for (size_t row = 0; row < count; ++row) values[row * series + s] = column[begin + row];
  }
  return Block::encode(headers, values, series, source.rate_ns());
}

std::shared_ptr<const ProcessBlock> process_frames_between(
    const std::shared_ptr<const ProcessBlock>& block, int64_t after_ns, int64_t until_ns) {
  if (block->first_time_ns() > after_ns && block->last_time_ns() <= until_ns) return block;
  if (block->last_time_ns() <= after_ns || block->first_time_ns() > until_ns) return nullptr;
  std::vector<ProcessBlock::Frame> frames;
  block->decode(frames);
  std::erase_if(frames, [&](const ProcessBlock::Frame& frame) {
    return frame.time_unix_ns <= after_ns || frame.time_unix_ns > until_ns;
  });
  if (frames.empty()) return nullptr;
  return ProcessBlock::encode(frames);
}

}  // namespace flightrec::store
