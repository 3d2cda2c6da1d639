#pragma once
// The framing that system blocks (FRBK) and process blocks (FRPB) share, see docs/STORAGE.md: a
// little-endian header that starts with magic, version, flags and total size, and a CRC32 (zlib
// `crc32`) of every byte before it in the last 4 bytes. What follows the size field is each
// block's own.
#include <cstdint>
#include <cstring>
#include <span>
#include <string>

#include "flightrec/common/result.h"

namespace flightrec::store::detail {

inline constexpr size_t kFramingMagicAt = 0;
inline constexpr size_t kFramingVersionAt = 4;
inline constexpr size_t kFramingFlagsAt = 6;
inline constexpr size_t kFramingSizeAt = 8;
inline constexpr size_t kCrcBytes = 4;

template <typename T>
void put_le(std::span<uint8_t> out, size_t at, T value) {
  std::memcpy(out.data() + at, &value, sizeof(T));
}
template <typename T>
T get_le(std::span<const uint8_t> in, size_t at) {
  T value;
  std::memcpy(&value, in.data() + at, sizeof(T));
  return value;
}

uint32_t crc_of(std::span<const uint8_t> bytes);

// What one kind of block expects of its framing.
struct FramingSpec {
  uint32_t magic;
  const char* magic_name;  // "FRBK", for error messages
  uint16_t version;
  size_t min_bytes;  // the smallest block of this kind, CRC included
};

// Writes magic, version, zero flags and `size` into the start of `block`.
void write_framing(std::span<uint8_t> block, const FramingSpec& spec, uint32_t size);

// Writes the CRC of all of `block` but its last 4 bytes into those bytes.
void seal_crc(std::span<uint8_t> block);

// Checks, in this order, the magic, the size field against `bytes`, the CRC (a mismatch means the
// block was never completely written), the version and the flags. The block's total size, from
// its header, or the error saying which check failed.
Result<uint32_t> check_framing(std::span<const uint8_t> bytes, const FramingSpec& spec);

}  // namespace flightrec::store::detail
