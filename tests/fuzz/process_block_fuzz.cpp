// Feeds arbitrary bytes to ProcessBlock::parse and the frame decoder behind it. Whatever they
// accept must decode, and re-encoding what they decoded must give the same frames back; a parse of
// the framing only, then decode_checked(), must agree with the full parse. The first
// input byte picks the mode, since random bytes rarely get past a CRC and a zlib stream:
//   0: the rest is a block, parsed as it is;
//   1: the rest is a block whose CRC is rewritten first (reaches the checks behind the CRC);
//   2: the rest is an uncompressed payload, decoded frame by frame (reaches every delta check).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "../../store/src/process_codec.h"
#include "block_crc.h"
#include "flightrec/store/process_block.h"

namespace {

using flightrec::process::ProcessFrame;
using flightrec::store::ProcessBlock;

// Frames materialised at once, so a tiny input cannot make the fuzzer run out of memory.
constexpr uint64_t kMaxRowsToCompare = 1 << 16;

// Frames that a decoder produced must encode, and decode back equal.
void check_round_trip(const std::vector<ProcessFrame>& frames) {
  if (frames.empty()) return;
  for (size_t i = 1; i < frames.size(); ++i) {
    // Decoded tables are pid-ordered by construction; only time order is the input's choice.
    if (!ProcessBlock::check_frame(frames[i], frames[i - 1].time_unix_ns)) return;
  }
  const auto block = ProcessBlock::encode(frames);
  const auto parsed = ProcessBlock::parse(block->bytes());
  if (!parsed) __builtin_trap();
  std::vector<ProcessFrame> again;
  parsed->block->decode(again);
  if (again != frames) __builtin_trap();
}

// A block parsed for its framing only must decode_checked() to what the full parse accepts, and
// fail with the full parse's error otherwise.
void check_framing_parse(const std::vector<uint8_t>& bytes,
                         const flightrec::Result<flightrec::store::ParsedProcessBlock>& full) {
  const auto lazily = ProcessBlock::parse(bytes, flightrec::store::ProcessBlockCheck::framing);
  if (!lazily) {
    if (full || lazily.error() != full.error()) __builtin_trap();
    return;
  }
  // decode_checked holds at most the rows the header counts: keep within the fuzzer's memory.
  if (lazily->block->process_rows() + lazily->block->socket_rows() > kMaxRowsToCompare) return;
  std::vector<ProcessFrame> frames;
  const auto decoded = lazily->block->decode_checked(frames);
  if (decoded.ok() != full.ok()) __builtin_trap();
  if (!full) {
    if (decoded.error() != full.error()) __builtin_trap();
    return;
  }
  std::vector<ProcessFrame> expected;
  full->block->decode(expected);
  if (frames != expected) __builtin_trap();
}

void fuzz_block(std::vector<uint8_t> bytes, bool rewrite) {
  if (rewrite) flightrec::fuzz::rewrite_block_crc(bytes);
  const auto parsed = ProcessBlock::parse(bytes);
  check_framing_parse(bytes, parsed);
  if (!parsed) {
    if (parsed.error().empty()) __builtin_trap();
    return;
  }
  const auto& block = *parsed->block;
  if (block.bytes().size() != parsed->consumed) __builtin_trap();
  uint32_t frames = 0;
  block.for_each_frame([&frames](const ProcessFrame&) {
    ++frames;
    return true;
  });
  if (frames != block.frames()) __builtin_trap();
  if (block.process_rows() + block.socket_rows() <= kMaxRowsToCompare) {
    std::vector<ProcessFrame> decoded;
    block.decode(decoded);
    if (decoded.front().time_unix_ns != block.first_time_ns() ||
        decoded.back().time_unix_ns != block.last_time_ns()) {
      __builtin_trap();
    }
    check_round_trip(decoded);
  }
}

void fuzz_payload(const uint8_t* data, size_t size) {
  flightrec::store::detail::ProcessFrameDecoder decoder({data, size});
  std::vector<ProcessFrame> frames;
  uint64_t rows = 0;
  for (uint32_t i = 0; i < 64 && !decoder.at_end(); ++i) {
    if (!decoder.next(i)) return;
    const auto& frame = decoder.current();
    rows += frame.processes.size() + frame.sockets.size();
    if (rows > kMaxRowsToCompare) return;
    frames.push_back(frame);
  }
  check_round_trip(frames);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  switch (data[0] % 3) {
    case 0:
    case 1:
      fuzz_block(std::vector<uint8_t>(data + 1, data + size), data[0] % 3 == 1);
      break;
    default:
      fuzz_payload(data + 1, size - 1);
      break;
  }
  return 0;
}
