#pragma once
// One column of a block: `count` int64 values, kAbsent allowed anywhere, coded in as few bits as
// the data allows. The bit layout is documented in docs/STORAGE.md ("Column coding").
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace flightrec::store::detail {

// Longest column a block may hold; sparse coding stores positions and counts in 16 bits.
inline constexpr size_t kMaxColumnValues = 65535;

// Encodes columns one after another, reusing its scratch space (not thread-safe; one per encoder).
class ColumnEncoder {
 public:
  // Appends the encoding of `values` (at most kMaxColumnValues) to `out`, starting on a byte
  // boundary. A column that is entirely kAbsent encodes to zero bytes.
  void encode(std::span<const int64_t> values, std::vector<uint8_t>& out);

 private:
  std::vector<uint64_t> present_;
};

// Decodes a column of `count` values from `bytes` into `out` (count entries). `bytes` must be
// followed by kReadPadding readable bytes. Returns false when the bytes are not a well-formed
// column of that length; `out` then holds unspecified values.
[[nodiscard]] bool decode_column(std::span<const uint8_t> bytes, size_t count, int64_t* out);

}  // namespace flightrec::store::detail
