#pragma once
// The integer coding of container frames: LEB128 varints, signed values zigzagged, and cgroup
// values (kAbsent and kUnlimited included) mapped so that the common small counts take a byte or
// two and the two markers one byte each. FrameReader reads untrusted bytes: once a read runs past
// the end or a value is malformed every later read fails too, and the first failure is kept.
#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "flightrec/container/cgroups/cgroup_stats.h"

namespace flightrec::container::detail {

inline uint64_t zigzag(int64_t value) {
  return (static_cast<uint64_t>(value) << 1) ^ static_cast<uint64_t>(value >> 63);
}
inline int64_t unzigzag(uint64_t value) {
  return static_cast<int64_t>(value >> 1) ^ -static_cast<int64_t>(value & 1);
}

// kAbsent is 0, kUnlimited 1, any other value its zigzag + 2: zigzag gives kAbsent (INT64_MIN) and
// kUnlimited (INT64_MAX) the two largest codes, so every other value's code + 2 still fits.
inline uint64_t value_code(int64_t value) {
  if (value == kAbsent) return 0;
  if (value == kUnlimited) return 1;
  return zigzag(value) + 2;
}
inline int64_t value_of_code(uint64_t code) {
  if (code == 0) return kAbsent;
  if (code == 1) return kUnlimited;
  return unzigzag(code - 2);
}

class FrameWriter {
 public:
  explicit FrameWriter(std::string& out) : out_(out) {}
  void u8(uint8_t value) { out_.push_back(static_cast<char>(value)); }
  void varint(uint64_t value) {
    while (value >= 0x80) {
      out_.push_back(static_cast<char>((value & 0x7f) | 0x80));
      value >>= 7;
    }
    out_.push_back(static_cast<char>(value));
  }
  void signed_varint(int64_t value) { varint(zigzag(value)); }
  void value(int64_t value) { varint(value_code(value)); }
  void f64(double value) {
    const auto bits = std::bit_cast<uint64_t>(value);
    for (size_t i = 0; i < 8; ++i) out_.push_back(static_cast<char>(bits >> (8 * i) & 0xff));
  }
  void string(std::string_view text) {
    varint(text.size());
    out_.append(text);
  }

 private:
  std::string& out_;
};

class FrameReader {
 public:
  explicit FrameReader(std::string_view bytes) : bytes_(bytes) {}

  uint8_t u8() {
    if (!take(1, "a byte")) return 0;
    return static_cast<uint8_t>(bytes_[at_ - 1]);
  }
  uint64_t varint() {
    uint64_t value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (!take(1, "a varint")) return 0;
      const auto byte = static_cast<uint8_t>(bytes_[at_ - 1]);
      // The tenth byte holds bit 63 only.
      if (shift == 63 && byte > 1) return fail("a varint longer than 64 bits"), 0;
      value |= uint64_t{byte & 0x7fu} << shift;
      if ((byte & 0x80) == 0) return value;
    }
    return fail("a varint longer than 64 bits"), 0;
  }
  int64_t signed_varint() { return unzigzag(varint()); }
  int64_t value() { return value_of_code(varint()); }
  double f64() {
    if (!take(8, "a double")) return 0;
    uint64_t bits = 0;
    for (size_t i = 0; i < 8; ++i)
      bits |= uint64_t{static_cast<uint8_t>(bytes_[at_ - 8 + i])} << (8 * i);
    return std::bit_cast<double>(bits);
  }
  std::string string() {
    const uint64_t size = varint();
    if (!take(size, "a string")) return {};
    return std::string(bytes_.substr(at_ - size, size));
  }
  // A count of items that take at least `min_bytes` each: more than the bytes left could hold is
  // an error, so a corrupt count cannot allocate beyond the input's size.
  uint64_t count(size_t min_bytes, std::string_view what) {
    const uint64_t n = varint();
    if (ok() && n > remaining() / min_bytes) {
      fail(std::string(what) + " count " + std::to_string(n) + " runs past the frame");
      return 0;
    }
    return n;
  }
  void fail(std::string message) {
    if (error_.empty()) error_ = std::move(message);
    at_ = bytes_.size();
  }
  [[nodiscard]] bool ok() const noexcept { return error_.empty(); }
  [[nodiscard]] const std::string& error() const noexcept { return error_; }
  [[nodiscard]] size_t remaining() const noexcept { return bytes_.size() - at_; }

 private:
  bool take(uint64_t size, std::string_view what) {
    if (!ok()) return false;
    if (size > remaining()) {
      fail("the frame ends inside " + std::string(what));
      return false;
    }
    at_ += size;
    return true;
  }

  std::string_view bytes_;
  size_t at_ = 0;
  std::string error_;
};

}  // namespace flightrec::container::detail
