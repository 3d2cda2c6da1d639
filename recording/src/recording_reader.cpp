#include <fstream>
#include <streambuf>

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

}  // namespace

RecordingReader::RecordingReader(std::istream& in) : in_(in) {}

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
      return fail("torn: the file ends inside " + std::string(what) + at_offset(offset_));
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
  if (got < kHeaderSize) return fail("torn: the file ends inside the header" + at_offset(offset_));
  const auto version = get_le<uint32_t>(bytes, kMagic.size());
  if (version != kFormatVersion) {
    return fail("unsupported recording format version " + std::to_string(version) +
                " (this flightrec reads version " + std::to_string(kFormatVersion) + ")");
  }

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
  if (auto error = decode_metadata(payload, metadata_); !error.empty()) {
    return fail(std::move(error) + " (section" + at_offset(section_at) + ")");
  }
  return true;
}

std::shared_ptr<const store::Block> RecordingReader::next() {
  if (failed_ || complete_) return nullptr;
  const uint64_t record_at = offset_;
  char tag = 0;
  if (!in_.get(tag)) {
    fail("torn: no trailer after block " + std::to_string(blocks_) + " (the file ends" +
         at_offset(record_at) + ")");
    return nullptr;
  }
  ++offset_;
  if (tag == kTrailerTag) {
    read_trailer(record_at);
    return nullptr;
  }
  const std::string block_name = "block " + std::to_string(blocks_) + at_offset(record_at);
  if (tag != kBlockTag) {
    fail("unexpected record tag " + std::to_string(static_cast<uint8_t>(tag)) +
         at_offset(record_at) + " (after " + std::to_string(blocks_) +
         " blocks): the file is corrupt");
    return nullptr;
  }
  std::string bytes;
  if (!read_exactly(8, bytes, "the length of " + block_name)) return nullptr;
  const auto length = get_le<uint64_t>(bytes, 0);
  if (length > kMaxBlockBytes) {
    fail(block_name + ": length " + std::to_string(length) + " exceeds the " +
         std::to_string(kMaxBlockBytes) + "-byte limit");
    return nullptr;
  }
  if (!read_exactly(length, bytes, block_name)) return nullptr;
  const auto parsed =
      store::Block::parse(std::span(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()));
  if (!parsed) {
    fail(block_name + ": " + parsed.error);
    return nullptr;
  }
  if (parsed.consumed != length) {
    fail(block_name + ": the block takes " + std::to_string(parsed.consumed) + " of its " +
         std::to_string(length) + " bytes");
    return nullptr;
  }
  const auto& block = *parsed.block;
  if (block.series() != metadata_.series.size() || block.rate_ns() != metadata_.rate_ns) {
    fail(block_name + ": " + std::to_string(block.series()) + " series at " +
         std::to_string(block.rate_ns()) + " ns, but the metadata describes " +
         std::to_string(metadata_.series.size()) + " series at " +
         std::to_string(metadata_.rate_ns) + " ns");
    return nullptr;
  }
  ++blocks_;
  return parsed.block;
}

bool RecordingReader::read_trailer(uint64_t trailer_at) {
  std::string rest;
  if (!read_exactly(kTrailerSize - 1, rest, "the trailer")) return false;
  const std::string trailer = std::string(1, kTrailerTag) + rest;
  const std::string where = "trailer" + at_offset(trailer_at);
  if (get_le<uint32_t>(trailer, kTrailerSize - 4) !=
      crc32_of(std::string_view(trailer).substr(0, kTrailerSize - 4))) {
    return fail(where + ": CRC mismatch (the trailer is corrupt)");
  }
  const auto blocks = get_le<uint64_t>(trailer, 1);
  const auto size = get_le<uint64_t>(trailer, 9);
  if (blocks != blocks_) {
    return fail(where + ": it counts " + std::to_string(blocks) + " blocks but the file holds " +
                std::to_string(blocks_));
  }
  if (size != offset_) {
    return fail(where + ": it gives the file size as " + std::to_string(size) +
                " bytes but it ends" + at_offset(offset_));
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

ReadResult read_all(std::istream& in) {
  ReadResult result;
  RecordingReader reader(in);
  if (reader.open()) {
    while (auto block = reader.next()) result.recording.blocks.push_back(std::move(block));
  }
  result.recording.meta = reader.metadata();
  if (!reader.complete()) {
    result.error = reader.error();
    result.recording.blocks.clear();
  }
  return result;
}

}  // namespace

ReadResult read_recording(std::span<const uint8_t> bytes) {
  SpanBuf buffer(bytes);
  std::istream in(&buffer);
  return read_all(in);
}

ReadResult read_recording(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return {.error = path.string() + ": cannot open"};
  auto result = read_all(in);
  if (!result.ok()) result.error = path.string() + ": " + result.error;
  return result;
}

}  // namespace flightrec::recording
