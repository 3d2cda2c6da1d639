// Encodes fuzzer-chosen frames into a block and requires every tick and value back exactly, both
// from the block and from its serialized bytes. Each value is steered by one control byte, so the
// fuzzer reaches constant, sparse, small-delta and full-range columns alike:
//   00xxxxxx  repeat the column's previous value     01xxxxxx  previous + (xxxxxx - 32)
//   10xxxxxx  kAbsent                                11xxxxxx  the next 8 bytes, raw
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "flightrec/sampler/frame.h"
#include "flightrec/sampler/series.h"
#include "flightrec/store/block.h"

namespace {

class Input {
 public:
  Input(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  bool empty() const { return at_ >= size_; }
  uint8_t byte() { return empty() ? 0 : data_[at_++]; }
  int64_t word() {
    uint64_t value = 0;
    for (int i = 0; i < 8; ++i) value = (value << 8) | byte();
    return static_cast<int64_t>(value);
  }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t at_ = 0;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using flightrec::sampler::FrameHeader;
  using flightrec::sampler::kAbsent;
  using flightrec::store::Block;
  constexpr size_t kMaxFrames = 2048;

  Input in(data, size);
  const uint32_t series = in.byte() % 9;
  const uint8_t gaps = in.byte();
  std::vector<FrameHeader> headers;
  std::vector<int64_t> values;
  std::vector<int64_t> previous(series, 0);
  uint64_t tick = static_cast<uint64_t>(in.word()) >> 2;
  while (!in.empty() && headers.size() < kMaxFrames) {
    tick += 1 + ((gaps >> (headers.size() % 8)) & 1);
    const auto at = static_cast<int64_t>(headers.size()) * 1'000'000;
    headers.push_back({tick, at, at});
    for (uint32_t s = 0; s < series; ++s) {
      const uint8_t control = in.byte();
      int64_t value = previous[s];
      switch (control >> 6) {
        case 0:
          break;
        case 1:
          value = static_cast<int64_t>(static_cast<uint64_t>(value) + (control & 63u) - 32u);
          break;
        case 2:
          value = kAbsent;
          break;
        default:
          value = in.word();
          break;
      }
      if (value != kAbsent) previous[s] = value;
      values.push_back(value);
    }
  }
  if (headers.empty()) return 0;

  const auto block = Block::encode(headers, values, series, 1'000'000);
  const auto parsed = Block::parse(block->bytes());
  if (!parsed || parsed->consumed != block->bytes().size()) __builtin_trap();
  for (const Block* decoded : {block.get(), parsed->block.get()}) {
    std::vector<uint64_t> ticks;
    decoded->decode_ticks(ticks);
    for (size_t f = 0; f < headers.size(); ++f) {
      if (ticks[f] != headers[f].tick) __builtin_trap();
    }
    std::vector<int64_t> column;
    for (uint32_t s = 0; s < series; ++s) {
      decoded->decode_series(s, column);
      for (size_t f = 0; f < headers.size(); ++f) {
        if (column[f] != values[f * series + s]) __builtin_trap();
      }
    }
  }
  return 0;
}
