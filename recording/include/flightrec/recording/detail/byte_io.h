#pragma once
// Little-endian integers in a byte string, and a bounds-checked reader over untrusted bytes.
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>

namespace flightrec::recording::detail {

template <typename Int>
void put_le(std::string& out, Int value) {
  for (size_t i = 0; i < sizeof(Int); ++i) {
    out.push_back(static_cast<char>(static_cast<uint64_t>(value) >> (8 * i) & 0xff));
  }
}

template <typename Int>
Int get_le(std::string_view bytes, size_t at) {
  uint64_t value = 0;
  for (size_t i = 0; i < sizeof(Int); ++i) {
    value |= uint64_t{static_cast<uint8_t>(bytes[at + i])} << (8 * i);
  }
  return static_cast<Int>(value);
}

uint32_t crc32_of(std::string_view bytes);

// Reads fields front to back; once a read runs past the end every later read fails too, so a
// parser can check ok() once per record instead of after every field.
class ByteReader {
 public:
  explicit ByteReader(std::string_view bytes) : bytes_(bytes) {}

  template <typename Int>
  Int integer() {
    if (!take(sizeof(Int))) return 0;
    return get_le<Int>(bytes_, at_ - sizeof(Int));
  }
  std::string string() {
    const auto size = integer<uint32_t>();
    if (!take(size)) return {};
    return std::string(bytes_.substr(at_ - size, size));
  }
  [[nodiscard]] bool ok() const noexcept { return ok_; }
  [[nodiscard]] size_t remaining() const noexcept { return bytes_.size() - at_; }

 private:
  bool take(size_t size) {
    if (!ok_ || size > remaining()) return ok_ = false;
    at_ += size;
    return true;
  }

  std::string_view bytes_;
  size_t at_ = 0;
  bool ok_ = true;
};

}  // namespace flightrec::recording::detail
