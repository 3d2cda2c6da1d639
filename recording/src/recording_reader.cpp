#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <streambuf>
#include <type_traits>

#include "flightrec/container/frame/container_frame_codec.h"
#include "flightrec/recording/detail/byte_io.h"
#include "flightrec/recording/detail/file_format.h"
#include "flightrec/recording/detail/metadata_codec.h"
#include "flightrec/recording/recording_file.h"

namespace flightrec::recording {

using namespace detail;

namespace {

// Bytes are read in pieces no larger than this, so a corrupt length field costs memory only for
// the bytes the file really has.
constexpr size_t kReadPiece = 1 << 20;

std::string at_offset(uint64_t offset) { return " at offset " + std::to_string(offset); }
// Where a file cut short ends, said apart from at_offset: `what` often names its own offset
// ("block 2 at offset 812"), and a second "at offset" reads as a stutter.
std::string ends_after(uint64_t size) { return " (after " + std::to_string(size) + " bytes)"; }

}  // namespace

RecordingReader::RecordingReader(std::istream& in, store::ProcessBlockCheck process_check)
    : in_(in), process_check_(process_check) {}

bool RecordingReader::fail(std::string message) {
  if (!failed_) error_ = std::move(message);
  failed_ = true;
  return false;
}

bool RecordingReader::read_exactly(size_t size, std::string& out, std::string_view what) {
  out.clear();
  while (out.size() < size) {
    const size_t piece = std::min(size - out.size(), kReadPiece);
    const size_t had = out.size();
    out.resize(had + piece);
    in_.read(out.data() + had, static_cast<std::streamsize>(piece));
    const auto got = static_cast<size_t>(in_.gcount());
    offset_ += got;
    if (got < piece) {
      return fail("torn: the file ends inside " + std::string(what) + ends_after(offset_));
    }
  }
  return true;
}

bool RecordingReader::open() {
  std::string bytes;
  in_.read(bytes.assign(kHeaderSize, '\0').data(), kHeaderSize);
  const auto got = static_cast<size_t>(in_.gcount());
  offset_ = got;
  if (got == 0) return fail("not a flightrec recording: the file is empty");
  const std::string_view seen = std::string_view(bytes).substr(0, std::min(got, kMagic.size()));
  if (seen != kMagic.substr(0, seen.size())) {
    return fail("not a flightrec recording (no FLTREC magic at offset 0)");
  }
  if (got < kHeaderSize) return fail("torn: the file ends inside the header" + ends_after(offset_));
  const auto version = get_le<uint32_t>(bytes, kMagic.size());
  if (version < kOldestFormatVersion || version > kFormatVersion) {
    return fail("unsupported recording format version " + std::to_string(version) +
                " (this flightrec reads versions " + std::to_string(kOldestFormatVersion) + " to " +
                std::to_string(kFormatVersion) + ")");
  }
  version_ = version;

  const uint64_t section_at = offset_;
  if (!read_exactly(4, bytes, "the metadata length")) return false;
  const auto length = get_le<uint32_t>(bytes, 0);
  if (length > kMaxMetadataBytes) {
    return fail("metadata" + at_offset(section_at) + ": length " + std::to_string(length) +
                " exceeds the " + std::to_string(kMaxMetadataBytes) + "-byte limit");
  }
  std::string payload;
  if (!read_exactly(length, payload, "the metadata") ||
      !read_exactly(4, bytes, "the metadata CRC")) {
    return false;
  }
  if (get_le<uint32_t>(bytes, 0) != crc32_of(payload)) {
    return fail("metadata" + at_offset(section_at) + ": CRC mismatch (the section is corrupt)");
  }
  auto decoded = decode_metadata(payload);
  if (!decoded) return fail(std::move(decoded).error() + " (section" + at_offset(section_at) + ")");
  metadata_ = *std::move(decoded);
  return true;
}

std::string RecordingReader::records_so_far() const {
  std::string text = "block " + std::to_string(blocks_);
  if (process_blocks_ > 0) text += " and process block " + std::to_string(process_blocks_);
  if (container_frames_ > 0) text += " and container frame " + std::to_string(container_frames_);
  return text;
}

RecordingRecord RecordingReader::next_record() {
  if (failed_ || complete_) return {};
  const uint64_t record_at = offset_;
  char tag = 0;
  if (!in_.get(tag)) {
    fail("torn: no trailer after " + records_so_far() + " (the file ends" + at_offset(record_at) +
         ")");
    return {};
  }
  ++offset_;
  if (tag == kTrailerTag) {
    read_trailer(record_at);
    return {};
  }
  if (tag == kBlockTag) {
    return read_block("block " + std::to_string(blocks_) + at_offset(record_at));
  }
  if (tag == kProcessBlockTag && version_ >= 2) {
    return read_process_block("process block " + std::to_string(process_blocks_) +
                              at_offset(record_at));
  }
  if (tag == kContainerFrameTag && version_ >= 3) {
    return read_container_frame("container frame " + std::to_string(container_frames_) +
                                at_offset(record_at));
  }
  fail("unexpected record tag " + std::to_string(static_cast<uint8_t>(tag)) + at_offset(record_at) +
       " (after " + records_so_far() + "): the file is corrupt");
  return {};
}

std::shared_ptr<const store::Block> RecordingReader::next() {
  while (auto record = next_record()) {
    if (record.block) return std::move(record.block);
  }
  return nullptr;
}

bool RecordingReader::read_record_bytes(std::string_view name, std::string& bytes) {
  if (!read_exactly(8, bytes, "the length of " + std::string(name))) return false;
  const auto length = get_le<uint64_t>(bytes, 0);
  if (length > kMaxBlockBytes) {
    return fail(std::string(name) + ": length " + std::to_string(length) + " exceeds the " +
                std::to_string(kMaxBlockBytes) + "-byte limit");
  }
  return read_exactly(length, bytes, name);
}

template <typename BlockType>
std::shared_ptr<const BlockType> RecordingReader::read_whole_block(const std::string& name) {
  std::string bytes;
  if (!read_record_bytes(name, bytes)) return nullptr;
  const std::span span(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  const auto parsed = [&] {
    if constexpr (std::is_same_v<BlockType, store::ProcessBlock>) {
      return BlockType::parse(span, process_check_);
    } else {
      return BlockType::parse(span);
    }
  }();
  if (!parsed) {
    fail(name + ": " + parsed.error());
    return nullptr;
  }
  if (parsed->consumed != bytes.size()) {
    fail(name + ": the block takes " + std::to_string(parsed->consumed) + " of its " +
         std::to_string(bytes.size()) + " bytes");
    return nullptr;
  }
  return parsed->block;
}

RecordingRecord RecordingReader::read_block(const std::string& name) {
  auto block = read_whole_block<store::Block>(name);
  if (block == nullptr) return {};
  if (block->series() != metadata_.series.size() || block->rate_ns() != metadata_.rate_ns) {
    fail(name + ": " + std::to_string(block->series()) + " series at " +
         std::to_string(block->rate_ns()) + " ns, but the metadata describes " +
         std::to_string(metadata_.series.size()) + " series at " +
         std::to_string(metadata_.rate_ns) + " ns");
    return {};
  }
  ++blocks_;
  return {.block = std::move(block)};
}

RecordingRecord RecordingReader::read_process_block(const std::string& name) {
  auto block = read_whole_block<store::ProcessBlock>(name);
  if (block == nullptr) return {};
  ++process_blocks_;
  return {.process_block = std::move(block)};
}

RecordingRecord RecordingReader::read_container_frame(const std::string& name) {
  std::string bytes;
  if (!read_record_bytes(name, bytes)) return {};
  // Decoded once here to check it, so a damaged frame fails the read as a damaged block does.
  const auto decoded = container::decode_container_frame(bytes);
  if (!decoded) {
    fail(name + ": " + decoded.error());
    return {};
  }
  ++container_frames_;
  return {.container_frame =
              std::make_shared<const store::StoredContainerFrame>(store::StoredContainerFrame{
                  .time_unix_ns = decoded->time_unix_ns, .bytes = std::move(bytes)})};
}

bool RecordingReader::read_trailer(uint64_t trailer_at) {
  const size_t size = version_ >= 3   ? kTrailerSizeV3
                      : version_ >= 2 ? kTrailerSizeV2
                                      : kTrailerSizeV1;
  std::string rest;
  if (!read_exactly(size - 1, rest, "the trailer")) return false;
  const std::string trailer = std::string(1, kTrailerTag) + rest;
  const std::string where = "trailer" + at_offset(trailer_at);
  if (get_le<uint32_t>(trailer, size - 4) !=
      crc32_of(std::string_view(trailer).substr(0, size - 4))) {
    return fail(where + ": CRC mismatch (the trailer is corrupt)");
  }
  const auto blocks = get_le<uint64_t>(trailer, 1);
  const auto process_blocks = version_ >= 2 ? get_le<uint64_t>(trailer, 9) : 0;
  const auto container_frames = version_ >= 3 ? get_le<uint64_t>(trailer, 17) : 0;
  const auto file_size = get_le<uint64_t>(trailer, size - 12);
  if (blocks != blocks_) {
    return fail(where + ": it counts " + std::to_string(blocks) + " blocks but the file holds " +
                std::to_string(blocks_));
  }
  if (process_blocks != process_blocks_) {
    return fail(where + ": it counts " + std::to_string(process_blocks) +
                " process blocks but the file holds " + std::to_string(process_blocks_));
  }
  if (container_frames != container_frames_) {
    return fail(where + ": it counts " + std::to_string(container_frames) +
                " container frames but the file holds " + std::to_string(container_frames_));
  }
  if (file_size != offset_) {
    return fail(where + ": it gives the file size as " + std::to_string(file_size) +
                " bytes but it ends after " + std::to_string(offset_));
  }
  if (in_.peek() != std::char_traits<char>::eof()) {
    return fail("unexpected bytes after the trailer" + at_offset(offset_));
  }
  complete_ = true;
  return true;
}

namespace {

// A read-only streambuf over bytes in memory, so one reader serves files and buffers alike.
class SpanBuf : public std::streambuf {
 public:
  explicit SpanBuf(std::span<const uint8_t> bytes) {
    auto* begin = const_cast<char*>(reinterpret_cast<const char*>(bytes.data()));
    setg(begin, begin, begin + bytes.size());
  }
};

// Decodes every process frame once the whole file checked out: a torn file costs no decoding.
Result<std::vector<process::ProcessFrame>> decode_process_frames(const ProcessBlockList& blocks,
                                                                 uint64_t max_rows) {
  uint64_t rows = 0;
  uint64_t frames = 0;
  for (const auto& block : blocks) {
    rows += block->process_rows() + block->socket_rows();
    frames += block->frames();
  }
  if (rows > max_rows) {
    return Error{"process frames: " + std::to_string(rows) + " rows, more than the " +
                 std::to_string(max_rows) + " read_recording holds in memory"};
  }
  std::vector<process::ProcessFrame> out;
  out.reserve(frames);
  for (const auto& block : blocks) {
    block->for_each_frame([&out](const process::ProcessFrame& frame) {
      out.push_back(frame);
      return true;
    });
  }
  // Records may come in any order; frames of one time keep their file order.
  std::stable_sort(out.begin(), out.end(),
                   [](const auto& a, const auto& b) { return a.time_unix_ns < b.time_unix_ns; });
  return out;
}

// The container frames, decoded (the reader checked each decodes), in time order. Rows are
// counted as they are decoded, so a recording of too many stops before memory grows past them.
Result<std::vector<container::ContainerFrame>> decode_container_frames(
    const store::ContainerFrameList& stored) {
  std::vector<container::ContainerFrame> out;
  out.reserve(stored.size());
  uint64_t rows = 0;
  for (const auto& frame : stored) {
    auto decoded = container::decode_container_frame(frame->bytes);
    if (!decoded) return Error{std::move(decoded).error()};
    rows += decoded->containers.size();
    if (rows > kMaxRecordingContainerRows) {
      return Error{"container frames: more than the " + std::to_string(kMaxRecordingContainerRows) +
                   " rows read_recording holds in memory"};
    }
    out.push_back(*std::move(decoded));
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const auto& a, const auto& b) { return a.time_unix_ns < b.time_unix_ns; });
  return out;
}

// What read_all does with the process blocks: decode them into frames, or keep them as stored.
enum class ProcessBlocks { decode, keep };

Result<Recording> read_all(std::istream& in, uint64_t max_process_rows, ProcessBlocks process) {
  Recording recording;
  RecordingReader reader(in, process == ProcessBlocks::keep ? store::ProcessBlockCheck::framing
                                                            : store::ProcessBlockCheck::frames);
  ProcessBlockList process_blocks;
  store::ContainerFrameList container_frames;
  if (reader.open()) {
    while (auto record = reader.next_record()) {
      if (record.block) recording.blocks.push_back(std::move(record.block));
      if (record.process_block) process_blocks.push_back(std::move(record.process_block));
      if (record.container_frame) container_frames.push_back(std::move(record.container_frame));
    }
  }
  if (!reader.complete()) return Error{reader.error()};
  if (process == ProcessBlocks::keep) {
    recording.process_blocks = std::move(process_blocks);
  } else {
    auto frames = decode_process_frames(process_blocks, max_process_rows);
    if (!frames) return Error{std::move(frames).error()};
    recording.process_frames = *std::move(frames);
  }
  auto containers = decode_container_frames(container_frames);
  if (!containers) return Error{std::move(containers).error()};
  recording.meta = reader.metadata();
  recording.container_frames = *std::move(containers);
  return recording;
}

Result<Recording> read_bytes(std::span<const uint8_t> bytes, uint64_t max_process_rows,
                             ProcessBlocks process) {
  SpanBuf buffer(bytes);
  std::istream in(&buffer);
  return read_all(in, max_process_rows, process);
}

Result<Recording> read_file(const std::filesystem::path& path, uint64_t max_process_rows,
                            ProcessBlocks process) {
  if (const Status openable = check_openable(path); !openable) {
    return Error{path.string() + ": " + openable.error()};
  }
  std::ifstream in(path, std::ios::binary);
  auto result = read_all(in, max_process_rows, process);
  if (!result) return Error{path.string() + ": " + result.error()};
  return result;
}

}  // namespace

Result<Recording> read_recording(std::span<const uint8_t> bytes, uint64_t max_process_rows) {
  return read_bytes(bytes, max_process_rows, ProcessBlocks::decode);
}

Result<Recording> read_recording_blocks(std::span<const uint8_t> bytes) {
  return read_bytes(bytes, 0, ProcessBlocks::keep);
}

Status check_openable(const std::filesystem::path& path) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) {
    return Error{"is a directory, not a recording file"};
  }
  std::ifstream probe(path, std::ios::binary);
  if (!probe) return Error{std::string("cannot open: ") + std::strerror(errno)};
  return {};
}

Result<Recording> read_recording(const std::filesystem::path& path, uint64_t max_process_rows) {
  return read_file(path, max_process_rows, ProcessBlocks::decode);
}

Result<Recording> read_recording_blocks(const std::filesystem::path& path) {
  return read_file(path, 0, ProcessBlocks::keep);
}

}  // namespace flightrec::recording
