#pragma once
// LSB-first bit packing for the column codec. The reader loads unaligned 64-bit words, so every
// buffer it reads must be followed by kReadPadding readable bytes (Block keeps them zeroed).
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace flightrec::store::detail {

static_assert(std::endian::native == std::endian::little, "the block format is little-endian");

// Bytes a BitReader may touch past the last bit it is allowed to read: one 8-byte word plus the
// longest token (3 prefix bits + 64 payload bits) that starts before the limit check fires.
inline constexpr size_t kReadPadding = 24;

[[nodiscard]] constexpr uint64_t low_bits_mask(unsigned width) noexcept {
  return width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
}

// Appends bits to a byte vector; finish() flushes the partial last byte.
class BitWriter {
 public:
  explicit BitWriter(std::vector<uint8_t>& out) noexcept : out_(out) {}

  // Writes the low `width` bits of `bits` (width <= 64; higher bits of `bits` must be zero).
  void write(uint64_t bits, unsigned width) {
    acc_ |= bits << fill_;
    const unsigned total = fill_ + width;
    if (total < 64) {
      fill_ = total;
      return;
    }
    put_word(acc_);
    acc_ = fill_ == 0 ? 0 : bits >> (64 - fill_);
    fill_ = total - 64;
  }

  void finish() {
    for (unsigned done = 0; done < fill_; done += 8) {
      out_.push_back(static_cast<uint8_t>(acc_ >> done));
    }
    acc_ = 0;
    fill_ = 0;
  }

 private:
  void put_word(uint64_t word) {
    const size_t at = out_.size();
    out_.resize(at + 8);
    std::memcpy(out_.data() + at, &word, 8);
  }

  std::vector<uint8_t>& out_;
  uint64_t acc_ = 0;
  unsigned fill_ = 0;  // bits pending in acc_, always < 64
};

// Reads bits written by BitWriter. It never checks bounds per read: callers compare position()
// against their limit once per token, which the padding makes safe.
class BitReader {
 public:
  BitReader(const uint8_t* data, size_t limit_bits) noexcept : data_(data), limit_(limit_bits) {}

  // At least the next 57 bits, starting at bit 0 of the result.
  [[nodiscard]] uint64_t peek() const noexcept {
    uint64_t word;
    std::memcpy(&word, data_ + (pos_ >> 3), 8);
    return word >> (pos_ & 7);
  }
  void skip(unsigned width) noexcept { pos_ += width; }

  [[nodiscard]] uint64_t read(unsigned width) noexcept {  // width <= 64
    if (width <= 56) {
      const uint64_t bits = peek() & low_bits_mask(width);
      pos_ += width;
      return bits;
    }
    const uint64_t low = read(32);
    return low | (read(width - 32) << 32);
  }

  [[nodiscard]] size_t position() const noexcept { return pos_; }
  [[nodiscard]] bool overran() const noexcept { return pos_ > limit_; }

 private:
  const uint8_t* data_;
  size_t limit_;
  size_t pos_ = 0;
};

[[nodiscard]] constexpr uint64_t zigzag(uint64_t twos_complement) noexcept {
  return (twos_complement << 1) ^ (0 - (twos_complement >> 63));
}
[[nodiscard]] constexpr uint64_t unzigzag(uint64_t encoded) noexcept {
  return (encoded >> 1) ^ (0 - (encoded & 1));
}

}  // namespace flightrec::store::detail
