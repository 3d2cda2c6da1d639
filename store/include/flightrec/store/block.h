#pragma once
// A sealed block: up to 65535 consecutive frames in columnar, compressed form, immutable once
// built. Its in-memory bytes are exactly its serialized form (header, column sizes, columns,
// CRC32), so writing a block to disk is writing bytes() and reading it back is Block::parse.
// The format is specified in docs/STORAGE.md.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "flightrec/common/result.h"
#include "flightrec/sampler/frame.h"

namespace flightrec::store {

inline constexpr uint16_t kBlockVersion = 1;
inline constexpr uint32_t kMaxBlockFrames = 65535;
inline constexpr uint32_t kMaxBlockSeries = 1u << 20;

class Block;

// What Block::parse read: a block and the bytes it used.
struct ParsedBlock {
  std::shared_ptr<const Block> block;
  size_t consumed = 0;
};

class Block {
 public:
  // Encodes frames.size() frames (1..kMaxBlockFrames, strictly increasing ticks) whose values are
  // row-major in `values` (frames.size() * series of them). rate_ns is the tick period.
  // Throws std::invalid_argument when the sizes or ticks break that contract (a caller bug).
  static std::shared_ptr<const Block> encode(std::span<const sampler::FrameHeader> frames,
                                             std::span<const int64_t> values, uint32_t series,
                                             int64_t rate_ns);

  // Reads the block at the start of `bytes` (trailing bytes are left for the caller: blocks can be
  // concatenated), or the error naming what was wrong. A block whose CRC does not match was never
  // completely written.
  static Result<ParsedBlock> parse(std::span<const uint8_t> bytes);

  // The serialized block, CRC included.
  [[nodiscard]] std::span<const uint8_t> bytes() const noexcept { return {bytes_.data(), size_}; }
  // Memory held by this block, for the ring's byte bound.
  [[nodiscard]] size_t memory_bytes() const noexcept;

  [[nodiscard]] uint32_t frames() const noexcept { return frames_; }
  [[nodiscard]] uint32_t series() const noexcept { return series_; }
  [[nodiscard]] uint64_t values() const noexcept { return uint64_t{frames_} * series_; }
  [[nodiscard]] uint64_t first_tick() const noexcept { return first_tick_; }
  [[nodiscard]] uint64_t last_tick() const noexcept { return last_tick_; }
  [[nodiscard]] int64_t rate_ns() const noexcept { return rate_ns_; }

  // Time of a tick on this block's grid: base + (tick - first_tick) * rate. The base is the
  // earliest-looking frame's timestamp projected to first_tick (a late read never moves it).
  [[nodiscard]] int64_t real_ns(uint64_t tick) const noexcept;
  [[nodiscard]] int64_t mono_ns(uint64_t tick) const noexcept;

  // Column decoders; `out` is resized to frames().
  void decode_ticks(std::vector<uint64_t>& out) const;
  void decode_series(uint32_t series_index, std::vector<int64_t>& out) const;
  // The same into caller memory of exactly frames() values.
  void decode_series(uint32_t series_index, std::span<int64_t> out) const;

 private:
  Block() = default;
  [[nodiscard]] std::span<const uint8_t> column(uint32_t index) const noexcept;  // 0 = ticks
  void decode_column_into(uint32_t index, int64_t* out) const noexcept;
  void index_columns(size_t sizes_at, size_t payload_at);

  std::vector<uint8_t> bytes_;  // serialized block followed by zeroed read padding
  size_t size_ = 0;
  // Every 16th column's offset into bytes_ and the offset of its size varint: random access to a
  // column reads at most 15 varints, at 1/16 of the memory of a full offset table.
  struct Checkpoint {
    uint32_t column_at = 0;
    uint32_t size_at = 0;
  };
  std::vector<Checkpoint> checkpoints_;
  uint32_t frames_ = 0;
  uint32_t series_ = 0;
  uint64_t first_tick_ = 0;
  uint64_t last_tick_ = 0;
  int64_t base_mono_ns_ = 0;
  int64_t base_real_ns_ = 0;
  int64_t rate_ns_ = 0;
};

}  // namespace flightrec::store
