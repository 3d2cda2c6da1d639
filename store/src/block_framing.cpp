#include "block_framing.h"

#include <zlib.h>

namespace flightrec::store::detail {

uint32_t crc_of(std::span<const uint8_t> bytes) {
  return static_cast<uint32_t>(
      crc32(crc32(0L, Z_NULL, 0), bytes.data(), static_cast<uInt>(bytes.size())));
}

void write_framing(std::span<uint8_t> block, const FramingSpec& spec, uint32_t size) {
  put_le<uint32_t>(block, kFramingMagicAt, spec.magic);
  put_le<uint16_t>(block, kFramingVersionAt, spec.version);
  put_le<uint16_t>(block, kFramingFlagsAt, 0);
  put_le<uint32_t>(block, kFramingSizeAt, size);
}

void seal_crc(std::span<uint8_t> block) {
  const size_t crc_at = block.size() - kCrcBytes;
  put_le<uint32_t>(block, crc_at, crc_of(block.first(crc_at)));
}

Result<uint32_t> check_framing(std::span<const uint8_t> bytes, const FramingSpec& spec) {
  auto fail = [](std::string message) { return Error{std::move(message)}; };
  if (bytes.size() < spec.min_bytes) {
    return fail("truncated: " + std::to_string(bytes.size()) + " bytes, a block takes at least " +
                std::to_string(spec.min_bytes));
  }
  if (get_le<uint32_t>(bytes, kFramingMagicAt) != spec.magic) {
    return fail(std::string("no ") + spec.magic_name + " magic at the start of the block");
  }
  const auto size = get_le<uint32_t>(bytes, kFramingSizeAt);
  if (size < spec.min_bytes) {
    return fail("size field " + std::to_string(size) + " is below the " +
                std::to_string(spec.min_bytes) + "-byte minimum");
  }
  if (size > bytes.size()) {
    return fail("truncated: header says " + std::to_string(size) + " bytes, only " +
                std::to_string(bytes.size()) + " present");
  }
  const auto stored_crc = get_le<uint32_t>(bytes, size - kCrcBytes);
  const uint32_t computed_crc = crc_of(bytes.first(size - kCrcBytes));
  if (stored_crc != computed_crc) {
    return fail("CRC mismatch (stored " + std::to_string(stored_crc) + ", computed " +
                std::to_string(computed_crc) + "): the block is corrupt");
  }
  if (const auto version = get_le<uint16_t>(bytes, kFramingVersionAt); version != spec.version) {
    return fail("unsupported version " + std::to_string(version) + " (this build reads " +
                std::to_string(spec.version) + ")");
  }
  if (const auto flags = get_le<uint16_t>(bytes, kFramingFlagsAt); flags != 0) {
    return fail("unknown flags " + std::to_string(flags));
  }
  return size;
}

}  // namespace flightrec::store::detail
