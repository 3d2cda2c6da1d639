// Feeds arbitrary bytes to Block::parse, which must reject them with a message or return a block
// whose every column decodes and whose bytes are exactly those it consumed. The first input byte
// chooses whether to rewrite the CRC first: without that, almost every input would stop at the
// CRC check and the structural checks behind it would never be reached.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "block_crc.h"
#include "flightrec/store/block.h"
#include "flightrec/store/cursor.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using flightrec::store::Block;
  if (size == 0) return 0;
  std::vector<uint8_t> bytes(data + 1, data + size);
  if ((data[0] & 1) != 0) flightrec::fuzz::rewrite_block_crc(bytes);

  const auto parsed = Block::parse(bytes);
  if (!parsed) {
    if (parsed.error().empty()) __builtin_trap();
    return 0;
  }
  const Block& block = *parsed->block;
  if (block.bytes().size() != parsed->consumed ||
      !std::equal(block.bytes().begin(), block.bytes().end(), bytes.begin())) {
    __builtin_trap();
  }
  std::vector<uint64_t> ticks;
  block.decode_ticks(ticks);
  if (ticks.size() != block.frames() || ticks.front() != block.first_tick() ||
      ticks.back() != block.last_tick()) {
    __builtin_trap();
  }
  std::vector<int64_t> column;
  for (uint32_t s = 0; s < block.series(); ++s) block.decode_series(s, column);

  flightrec::store::Cursor cursor({parsed->block});
  size_t frames = 0;
  while (cursor.next()) ++frames;
  if (frames > block.frames()) __builtin_trap();
  return 0;
}
