#pragma once
// Small, allocation-free scanning helpers shared by the sources' parse_* functions. They work on
// std::string_view cursors that advance as they read, and never read outside the view, so the
// parsers stay safe on truncated or garbage input (the fuzzers check that).
#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <span>
#include <string_view>

#include "flightrec/sampler/series.h"
#include "flightrec/sampler/source.h"

namespace flightrec::sampler::parsing {

// Splits the next line (without its '\n') off `text`; false once `text` is used up.
inline bool next_line(std::string_view& text, std::string_view& line) noexcept {
  if (text.empty()) return false;
  const void* newline = std::memchr(text.data(), '\n', text.size());
  if (newline == nullptr) {
    line = text;
    text = {};
    return true;
  }
  const auto length = static_cast<size_t>(static_cast<const char*>(newline) - text.data());
  line = text.substr(0, length);
  text.remove_prefix(length + 1);
  return true;
}

[[nodiscard]] inline bool is_blank(char c) noexcept { return c == ' ' || c == '\t'; }

inline void skip_blanks(std::string_view& s) noexcept {
  size_t i = 0;
  while (i < s.size() && is_blank(s[i])) ++i;
  s.remove_prefix(i);
}

// Reads the decimal digits at the start of `s` (no sign, no blanks) as an int64; false when there
// is no digit or the number does not fit. Stops at the first non-digit, whatever it is.
inline bool read_digits(std::string_view& s, int64_t& value) noexcept {
  constexpr uint64_t kMax = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
  // 18 digits cannot overflow, so the hot loop needs no overflow test (it is the parsers' main
  // cost); only longer numbers take the checked path.
  constexpr size_t kUncheckedDigits = 18;
  const size_t unchecked_end = std::min(s.size(), kUncheckedDigits);
  uint64_t v = 0;
  size_t i = 0;
  for (; i < unchecked_end; ++i) {
    const auto digit = static_cast<uint64_t>(static_cast<unsigned char>(s[i])) - uint64_t{'0'};
    if (digit > 9) break;
    v = v * 10 + digit;
  }
  if (i == kUncheckedDigits) {
    for (; i < s.size(); ++i) {
      const auto digit = static_cast<uint64_t>(static_cast<unsigned char>(s[i])) - uint64_t{'0'};
      if (digit > 9) break;
      if (v > (kMax - digit) / 10) return false;
      v = v * 10 + digit;
    }
  }
  if (i == 0) return false;
  s.remove_prefix(i);
  value = static_cast<int64_t>(v);
  return true;
}

// Skips blanks, then reads one whole blank-delimited unsigned number: "12kB" or "1x" is rejected.
inline bool read_count(std::string_view& s, int64_t& value) noexcept {
  skip_blanks(s);
  std::string_view rest = s;
  if (!read_digits(rest, value)) return false;
  if (!rest.empty() && !is_blank(rest.front())) return false;
  s = rest;
  return true;
}

// Skips blanks and returns the next blank-delimited token (empty at the end of `s`).
inline std::string_view next_token(std::string_view& s) noexcept {
  skip_blanks(s);
  size_t i = 0;
  while (i < s.size() && !is_blank(s[i])) ++i;
  const std::string_view token = s.substr(0, i);
  s.remove_prefix(i);
  return token;
}

// value * factor, or kAbsent when the product would overflow (sectors -> bytes, kB -> bytes).
[[nodiscard]] constexpr int64_t scaled_or_absent(int64_t value, int64_t factor) noexcept {
  if (value == kAbsent) return kAbsent;
  if (value > std::numeric_limits<int64_t>::max() / factor) return kAbsent;
  return value * factor;
}

inline void fill_absent(std::span<int64_t> out) noexcept {
  std::fill(out.begin(), out.end(), kAbsent);
}

// ok when every value is present, failed when none is, partial in between.
[[nodiscard]] inline SampleStatus status_of(std::span<const int64_t> values) noexcept {
  const auto absent = static_cast<size_t>(std::count(values.begin(), values.end(), kAbsent));
  if (absent == 0) return SampleStatus::ok;
  return absent == values.size() ? SampleStatus::failed : SampleStatus::partial;
}

// Maps a fixed set of field names to their positions with one hash and usually one comparison.
// Built at compile time; meminfo and vmstat use it to pick a few fields out of many lines.
template <size_t N>
class NameIndex {
 public:
  static constexpr int kNotFound = -1;

  constexpr explicit NameIndex(const std::array<std::string_view, N>& names) : names_(names) {
    buckets_.fill(kEmpty);
    for (size_t i = 0; i < N; ++i) {
      if (!names[i].empty()) {
        const auto first = static_cast<unsigned char>(names[i].front());
        first_bytes_[first / 64] |= uint64_t{1} << (first % 64);
      }
      size_t bucket = hash(names[i]) & kMask;
      while (buckets_[bucket] != kEmpty) bucket = (bucket + 1) & kMask;
      buckets_[bucket] = static_cast<uint8_t>(i);
    }
  }

  // False when no name starts with `c`: lets a parser skip most lines without reading their name.
  [[nodiscard]] constexpr bool may_start_with(char c) const noexcept {
    const auto byte = static_cast<unsigned char>(c);
    return (first_bytes_[byte / 64] >> (byte % 64) & 1) != 0;
  }

  // Position of `name` in the constructor's list, or kNotFound.
  [[nodiscard]] constexpr int find(std::string_view name) const noexcept {
    for (size_t bucket = hash(name) & kMask; buckets_[bucket] != kEmpty;
         bucket = (bucket + 1) & kMask) {
      if (names_[buckets_[bucket]] == name) return buckets_[bucket];
    }
    return kNotFound;
  }

 private:
  static_assert(N < 255, "bucket entries are uint8_t");
  // A quarter full at most, so probes are short and an unknown name usually hits an empty bucket.
  static constexpr size_t kBuckets = std::bit_ceil(N * 4);
  static constexpr size_t kMask = kBuckets - 1;
  static constexpr uint8_t kEmpty = 0xff;

  // Constant time: length, first, middle and last byte, mixed by one multiplication. Hashing
  // every byte of names like "nr_zone_inactive_file" cost more than the rest of the parse.
  [[nodiscard]] static constexpr size_t hash(std::string_view name) noexcept {
    if (name.empty()) return 0;
    const auto byte = [&](size_t i) { return uint64_t{static_cast<unsigned char>(name[i])}; };
    const uint64_t key = (uint64_t{name.size()} << 24) | (byte(0) << 16) |
                         (byte(name.size() / 2) << 8) | byte(name.size() - 1);
    return static_cast<size_t>((key * 0x9E3779B97F4A7C15ull) >> 40);
  }

  std::array<std::string_view, N> names_;
  std::array<uint8_t, kBuckets> buckets_{};
  std::array<uint64_t, 4> first_bytes_{};  // bit set of the names' first bytes
};

}  // namespace flightrec::sampler::parsing
