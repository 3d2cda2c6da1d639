#pragma once
// Random bytes almost never carry a right CRC, so the block fuzzers rewrite it first to reach the
// checks behind it.
#include <cstdint>
#include <span>
#include <vector>

#include "../../store/src/block_framing.h"

namespace flightrec::fuzz {

// Rewrites the CRC of the block `bytes` start with, when its size field fits in `bytes`.
inline void rewrite_block_crc(std::vector<uint8_t>& bytes) {
  using store::detail::kFramingSizeAt;
  constexpr size_t kSizeEnd = kFramingSizeAt + sizeof(uint32_t);
  if (bytes.size() < kSizeEnd) return;
  const auto size = store::detail::get_le<uint32_t>(bytes, kFramingSizeAt);
  if (size < kSizeEnd || size > bytes.size()) return;
  store::detail::seal_crc(std::span(bytes).first(size));
}

}  // namespace flightrec::fuzz
