#include "flightrec/store/process_block.h"

#include <zlib.h>

#include <limits>
#include <stdexcept>

#include "block_framing.h"
#include "process_codec.h"

namespace flightrec::store {

namespace {

using detail::get_le;
using detail::kCrcBytes;
using detail::put_le;

// Fixed header layout after the shared framing (little-endian); see docs/STORAGE.md.
constexpr size_t kFramesAt = 12;
constexpr size_t kFirstTimeAt = 16;
constexpr size_t kLastTimeAt = 24;
constexpr size_t kPayloadSizeAt = 32;
constexpr size_t kProcessRowsAt = 36;
constexpr size_t kSocketRowsAt = 40;
constexpr size_t kHeaderBytes = 44;
constexpr detail::FramingSpec kFraming{.magic = 0x42505246,  // "FRPB" as little-endian bytes
                                       .magic_name = "FRPB",
                                       .version = kProcessBlockVersion,
                                       .min_bytes = kHeaderBytes + kCrcBytes};
// Deflate cannot expand data more than ~1032 times: a header claiming more is lying, and
// refusing it up front keeps a few hostile bytes from reserving 64 MiB.
constexpr uint64_t kMaxInflateRatio = 1032;
constexpr int kDeflateLevel = 6;

// Inflates exactly `size` bytes from `compressed`, all of which must be used; empty on error.
bool inflate_exactly(std::span<const uint8_t> compressed, size_t size, std::vector<uint8_t>& out) {
  out.resize(size);
  uLongf produced = size;
  uLong consumed = compressed.size();
  const int status = uncompress2(out.data(), &produced, compressed.data(), &consumed);
  return status == Z_OK && produced == size && consumed == compressed.size();
}

Error fail_parse(std::string message) { return Error{"process block: " + std::move(message)}; }

}  // namespace

Status ProcessBlock::check_frame(const Frame& frame, int64_t previous_time_ns) {
  if (frame.time_unix_ns < previous_time_ns) {
    return Error{"time " + std::to_string(frame.time_unix_ns) + " is before the frame before (" +
                 std::to_string(previous_time_ns) + ")"};
  }
  if (frame.processes.size() > kMaxProcessesPerFrame) {
    return Error{std::to_string(frame.processes.size()) + " processes, more than " +
                 std::to_string(kMaxProcessesPerFrame)};
  }
  if (frame.sockets.size() > kMaxSocketsPerFrame) {
    return Error{std::to_string(frame.sockets.size()) + " sockets, more than " +
                 std::to_string(kMaxSocketsPerFrame)};
  }
  for (size_t i = 1; i < frame.processes.size(); ++i) {
    if (frame.processes[i].pid <= frame.processes[i - 1].pid) {
      return Error{"process " + std::to_string(i) + " (pid " +
                   std::to_string(frame.processes[i].pid) + ") does not follow pid " +
                   std::to_string(frame.processes[i - 1].pid) + ": pids must ascend strictly"};
    }
  }
  return {};
}

template <typename FrameAt>
std::shared_ptr<const ProcessBlock> ProcessBlock::encode_frames(size_t count, FrameAt frame_at) {
  if (count == 0 || count > kMaxProcessBlockFrames) {
    throw std::invalid_argument("ProcessBlock::encode: " + std::to_string(count) +
                                " frames, expected 1.." + std::to_string(kMaxProcessBlockFrames));
  }
  detail::ProcessFrameEncoder encoder;
  uint64_t process_rows = 0;
  uint64_t socket_rows = 0;
  int64_t previous_time = std::numeric_limits<int64_t>::min();
  for (size_t i = 0; i < count; ++i) {
    const Frame& frame = frame_at(i);
    if (const Status follows = check_frame(frame, previous_time); !follows) {
      throw std::invalid_argument("ProcessBlock::encode: frame " + std::to_string(i) + ": " +
                                  follows.error());
    }
    previous_time = frame.time_unix_ns;
    encoder.add(frame);
    process_rows += frame.processes.size();
    socket_rows += frame.sockets.size();
  }
  const auto& payload = encoder.bytes();
  if (process_rows + socket_rows > kMaxProcessBlockRows ||
      payload.size() > kMaxProcessPayloadBytes) {
    throw std::invalid_argument("ProcessBlock::encode: " + std::to_string(count) +
                                " frames are too big for one block (" +
                                std::to_string(process_rows + socket_rows) + " rows, " +
                                std::to_string(payload.size()) + " bytes)");
  }

  auto block = std::shared_ptr<ProcessBlock>(new ProcessBlock());
  std::vector<uint8_t>& out = block->bytes_;
  uLongf compressed = compressBound(payload.size());
  out.resize(kHeaderBytes + compressed + kCrcBytes);
  if (compress2(out.data() + kHeaderBytes, &compressed, payload.data(), payload.size(),
                kDeflateLevel) != Z_OK) {
    throw std::runtime_error("ProcessBlock::encode: zlib failed");
  }
  out.resize(kHeaderBytes + compressed + kCrcBytes);
  out.shrink_to_fit();
  block->frames_ = static_cast<uint32_t>(count);
  block->first_time_ns_ = frame_at(0).time_unix_ns;
  block->last_time_ns_ = frame_at(count - 1).time_unix_ns;
  block->process_rows_ = process_rows;
  block->socket_rows_ = socket_rows;
  detail::write_framing(out, kFraming, static_cast<uint32_t>(out.size()));
  put_le<uint32_t>(out, kFramesAt, block->frames_);
  put_le<int64_t>(out, kFirstTimeAt, block->first_time_ns_);
  put_le<int64_t>(out, kLastTimeAt, block->last_time_ns_);
  put_le<uint32_t>(out, kPayloadSizeAt, static_cast<uint32_t>(payload.size()));
  put_le<uint32_t>(out, kProcessRowsAt, static_cast<uint32_t>(process_rows));
  put_le<uint32_t>(out, kSocketRowsAt, static_cast<uint32_t>(socket_rows));
  detail::seal_crc(out);
  return block;
}

std::shared_ptr<const ProcessBlock> ProcessBlock::encode(std::span<const Frame> frames) {
  return encode_frames(frames.size(), [frames](size_t i) -> const Frame& { return frames[i]; });
}

std::shared_ptr<const ProcessBlock> ProcessBlock::encode(
    std::span<const std::shared_ptr<const Frame>> frames) {
  return encode_frames(frames.size(), [frames](size_t i) -> const Frame& { return *frames[i]; });
}

Result<ParsedProcessBlock> ProcessBlock::parse(std::span<const uint8_t> bytes,
                                               ProcessBlockCheck check) {
  const auto framing = detail::check_framing(bytes, kFraming);
  if (!framing) return fail_parse(framing.error());
  const uint32_t size = *framing;
  const auto block_bytes = bytes.first(size);
  auto block = std::shared_ptr<ProcessBlock>(new ProcessBlock());
  block->frames_ = get_le<uint32_t>(bytes, kFramesAt);
  block->first_time_ns_ = get_le<int64_t>(bytes, kFirstTimeAt);
  block->last_time_ns_ = get_le<int64_t>(bytes, kLastTimeAt);
  block->process_rows_ = get_le<uint32_t>(bytes, kProcessRowsAt);
  block->socket_rows_ = get_le<uint32_t>(bytes, kSocketRowsAt);
  const uint32_t payload_size = get_le<uint32_t>(bytes, kPayloadSizeAt);
  const auto compressed = block_bytes.subspan(kHeaderBytes, size - kFraming.min_bytes);
  if (block->frames_ == 0 || block->frames_ > kMaxProcessBlockFrames) {
    return fail_parse(std::to_string(block->frames_) + " frames, expected 1.." +
                      std::to_string(kMaxProcessBlockFrames));
  }
  if (block->process_rows_ + block->socket_rows_ > kMaxProcessBlockRows) {
    return fail_parse(std::to_string(block->process_rows_ + block->socket_rows_) +
                      " rows, more than the " + std::to_string(kMaxProcessBlockRows) + " allowed");
  }
  if (payload_size > kMaxProcessPayloadBytes ||
      payload_size > compressed.size() * kMaxInflateRatio + 1024) {
    return fail_parse("a payload of " + std::to_string(payload_size) +
                      " bytes is over the limit or " + "cannot come from " +
                      std::to_string(compressed.size()) + " compressed bytes");
  }
  block->bytes_.assign(block_bytes.begin(), block_bytes.end());
  if (check == ProcessBlockCheck::frames) {
    if (Status frames = block->decode_frames(nullptr); !frames) return Error{frames.error()};
  }
  return ParsedProcessBlock{.block = std::move(block), .consumed = size};
}

Status ProcessBlock::decode_checked(std::vector<Frame>& out) const {
  out.clear();
  return decode_frames(&out);
}

// Inflates the payload and decodes every frame, checking each against the header; keeps them in
// `out` unless it is null.
Status ProcessBlock::decode_frames(std::vector<Frame>* out) const {
  const uint32_t payload_size = get_le<uint32_t>(bytes_, kPayloadSizeAt);
  const auto compressed =
      std::span(bytes_).subspan(kHeaderBytes, bytes_.size() - kFraming.min_bytes);
  std::vector<uint8_t> payload;
  if (!inflate_exactly(compressed, payload_size, payload)) {
    return fail_parse("the compressed payload does not inflate to the " +
                      std::to_string(payload_size) + " bytes its header gives");
  }
  detail::ProcessFrameDecoder decoder(payload);
  uint64_t process_rows = 0;
  uint64_t socket_rows = 0;
  int64_t previous_time = first_time_ns_;
  if (out != nullptr) out->reserve(frames_);
  for (uint32_t i = 0; i < frames_; ++i) {
    if (const Status decoded = decoder.next(i); !decoded) return fail_parse(decoded.error());
    const auto& frame = decoder.current();
    if (i == 0 && frame.time_unix_ns != first_time_ns_) {
      return fail_parse("frame 0 is at " + std::to_string(frame.time_unix_ns) +
                        " but the header says " + std::to_string(first_time_ns_));
    }
    if (frame.time_unix_ns < previous_time) {
      return fail_parse("frame " + std::to_string(i) + " goes back in time");
    }
    previous_time = frame.time_unix_ns;
    process_rows += frame.processes.size();
    socket_rows += frame.sockets.size();
    // Stopped as soon as it is over: a block decoded into memory (decode_checked) then holds at
    // most the rows its header declared.
    if (process_rows > process_rows_ || socket_rows > socket_rows_) {
      return fail_parse("frame " + std::to_string(i) + " takes the block past the " +
                        std::to_string(process_rows_) + " processes and " +
                        std::to_string(socket_rows_) + " sockets its header counts");
    }
    if (process_rows + socket_rows > kMaxProcessBlockRows) {
      return fail_parse("frame " + std::to_string(i) + " takes the block over " +
                        std::to_string(kMaxProcessBlockRows) + " rows");
    }
    if (out != nullptr) out->push_back(frame);
  }
  if (!decoder.at_end()) return fail_parse("bytes left after the last frame");
  if (decoder.current().time_unix_ns != last_time_ns_) {
    return fail_parse("the last frame is at " + std::to_string(decoder.current().time_unix_ns) +
                      " but the header says " + std::to_string(last_time_ns_));
  }
  if (process_rows != process_rows_ || socket_rows != socket_rows_) {
    return fail_parse("the header counts " + std::to_string(process_rows_) + " processes and " +
                      std::to_string(socket_rows_) + " sockets, the frames hold " +
                      std::to_string(process_rows) + " and " + std::to_string(socket_rows));
  }
  return {};
}

std::vector<uint8_t> ProcessBlock::inflate_payload() const {
  const auto bytes = this->bytes();
  std::vector<uint8_t> payload;
  inflate_exactly(bytes.subspan(kHeaderBytes, bytes.size() - kHeaderBytes - kCrcBytes),
                  get_le<uint32_t>(bytes, kPayloadSizeAt), payload);
  return payload;
}

void ProcessBlock::for_each_frame(const std::function<bool(const Frame&)>& visit) const {
  const auto payload = inflate_payload();
  detail::ProcessFrameDecoder decoder(payload);
  for (uint32_t i = 0; i < frames_; ++i) {
    // Cannot fail: the block was encoded here or checked by parse().
    if (!decoder.next(i) || !visit(decoder.current())) return;
  }
}

void ProcessBlock::decode(std::vector<Frame>& out) const {
  out.clear();
  out.reserve(frames_);
  for_each_frame([&out](const Frame& frame) {
    out.push_back(frame);
    return true;
  });
}

size_t ProcessBlock::memory_bytes() const noexcept { return sizeof(*this) + bytes_.capacity(); }

}  // namespace flightrec::store
