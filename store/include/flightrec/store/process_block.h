#pragma once
// A process block: a run of consecutive process-tier frames, immutable once built. The first frame
// is stored whole, each later one as its difference from the one before (new rows, changed fields,
// removed pids), and the lot is deflated. Its in-memory bytes are its serialized form (header,
// zlib stream, CRC32), so writing one to a recording is writing bytes(). Format: docs/STORAGE.md
// ("Process blocks").
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "flightrec/common/result.h"
#include "flightrec/process/process_frame.h"

namespace flightrec::store {

inline constexpr uint16_t kProcessBlockVersion = 1;
inline constexpr uint32_t kMaxProcessBlockFrames = 4096;
// Bounds a parser enforces so that hostile bytes cannot make decoding allocate without limit
// (processes.max_count defaults to 8192; a row decodes to ~300 bytes).
inline constexpr uint32_t kMaxProcessesPerFrame = 1u << 17;
inline constexpr uint32_t kMaxSocketsPerFrame = 1u << 18;
inline constexpr uint64_t kMaxProcessBlockRows = 1u << 21;      // processes + sockets, all frames
inline constexpr uint32_t kMaxProcessPayloadBytes = 64u << 20;  // uncompressed

class ProcessBlock;

// How much of a block ProcessBlock::parse checks.
enum class ProcessBlockCheck {
  // Every frame, decoded once: a block that parses always decodes.
  frames,
  // The framing, CRC and header bounds only, for a reader that decodes few of many blocks
  // (replay): decode_checked() finds what is wrong with the frames when they are first needed.
  framing,
};

// What ProcessBlock::parse read: a block and the bytes it used.
struct ParsedProcessBlock {
  std::shared_ptr<const ProcessBlock> block;
  size_t consumed = 0;
};

class ProcessBlock {
 public:
  using Frame = process::ProcessFrame;

  // Encodes 1..kMaxProcessBlockFrames frames whose times do not go backwards and whose processes
  // are in strictly ascending pid order, within the per-frame bounds above. Throws
  // std::invalid_argument otherwise (a caller bug; check with check_frame() first).
  static std::shared_ptr<const ProcessBlock> encode(std::span<const Frame> frames);
  static std::shared_ptr<const ProcessBlock> encode(
      std::span<const std::shared_ptr<const Frame>> frames);

  // Whether `frame` can follow a frame at `previous_time_ns` in a block; the error says why not.
  static Status check_frame(const Frame& frame, int64_t previous_time_ns);

  // Reads the block at the start of `bytes` (trailing bytes are left to the caller) and checks
  // all of it, decoding every frame once: a block that parses always decodes. The error names
  // what was wrong and where. ProcessBlockCheck::framing checks less (see there).
  static Result<ParsedProcessBlock> parse(std::span<const uint8_t> bytes,
                                          ProcessBlockCheck check = ProcessBlockCheck::frames);

  // All frames, oldest first (`out` is replaced), of a block that was encoded here or checked by
  // parse() with ProcessBlockCheck::frames.
  void decode(std::vector<Frame>& out) const;
  // The same for any block, checking every frame as parse() does: the error names what is wrong
  // (`out` then holds nothing useful).
  Status decode_checked(std::vector<Frame>& out) const;
  // Frame by frame, without holding more than two decoded frames: `visit` sees each in order and
  // returns false to stop early.
  void for_each_frame(const std::function<bool(const Frame&)>& visit) const;

  // The serialized block, CRC included.
  [[nodiscard]] std::span<const uint8_t> bytes() const noexcept { return bytes_; }
  [[nodiscard]] size_t memory_bytes() const noexcept;

  [[nodiscard]] uint32_t frames() const noexcept { return frames_; }
  [[nodiscard]] int64_t first_time_ns() const noexcept { return first_time_ns_; }
  [[nodiscard]] int64_t last_time_ns() const noexcept { return last_time_ns_; }
  // Totals over all frames: process rows and socket rows (for size estimates).
  [[nodiscard]] uint64_t process_rows() const noexcept { return process_rows_; }
  [[nodiscard]] uint64_t socket_rows() const noexcept { return socket_rows_; }

 private:
  ProcessBlock() = default;
  template <typename FrameAt>
  static std::shared_ptr<const ProcessBlock> encode_frames(size_t count, FrameAt frame_at);
  [[nodiscard]] std::vector<uint8_t> inflate_payload() const;
  Status decode_frames(std::vector<Frame>* out) const;

  std::vector<uint8_t> bytes_;
  uint32_t frames_ = 0;
  int64_t first_time_ns_ = 0;
  int64_t last_time_ns_ = 0;
  uint64_t process_rows_ = 0;
  uint64_t socket_rows_ = 0;
};

}  // namespace flightrec::store
