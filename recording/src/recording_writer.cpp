#include <stdexcept>

#include "flightrec/common/atomic_file.h"
#include "flightrec/recording/detail/byte_io.h"
#include "flightrec/recording/detail/file_format.h"
#include "flightrec/recording/detail/metadata_codec.h"
#include "flightrec/recording/recording_file.h"

namespace flightrec::recording {

using namespace detail;

RecordingWriter::RecordingWriter(Sink sink, const Metadata& metadata)
    : sink_(std::move(sink)), series_(metadata.series.size()), rate_ns_(metadata.rate_ns) {
  std::string head(kMagic);
  put_le(head, kFormatVersion);
  const std::string payload = encode_metadata(metadata);
  put_le(head, static_cast<uint32_t>(payload.size()));
  head += payload;
  put_le(head, crc32_of(payload));
  put(head);
}

bool RecordingWriter::put(std::string_view bytes) {
  if (ok_) ok_ = sink_(bytes);
  bytes_ += bytes.size();
  return ok_;
}

bool RecordingWriter::add(const store::Block& block) {
  if (block.series() != series_ || block.rate_ns() != rate_ns_) {
    throw std::invalid_argument("RecordingWriter::add: block of " + std::to_string(block.series()) +
                                " series at " + std::to_string(block.rate_ns()) +
                                " ns does not match the metadata (" + std::to_string(series_) +
                                " series at " + std::to_string(rate_ns_) + " ns)");
  }
  const auto bytes = block.bytes();
  std::string prefix(1, kBlockTag);
  put_le(prefix, static_cast<uint64_t>(bytes.size()));
  ++blocks_;
  return put(prefix) &&
         put(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

bool RecordingWriter::add_process_block(const store::ProcessBlock& block) {
  const auto bytes = block.bytes();
  std::string prefix(1, kProcessBlockTag);
  put_le(prefix, static_cast<uint64_t>(bytes.size()));
  ++process_blocks_;
  return put(prefix) &&
         put(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

bool RecordingWriter::add_container_frame(const store::StoredContainerFrame& frame) {
  std::string prefix(1, kContainerFrameTag);
  put_le(prefix, static_cast<uint64_t>(frame.bytes.size()));
  ++container_frames_;
  return put(prefix) && put(frame.bytes);
}

bool RecordingWriter::add_all(
    std::span<const std::shared_ptr<const store::Block>> blocks,
    std::span<const std::shared_ptr<const store::ProcessBlock>> process_blocks,
    std::span<const std::shared_ptr<const store::StoredContainerFrame>> container_frames) {
  // A merge by start time, so a reader streaming the file meets every tier's history together; on
  // equal times system blocks first, then process blocks, then container frames.
  size_t b = 0;
  size_t p = 0;
  size_t c = 0;
  constexpr int64_t kDone = INT64_MAX;
  while (ok_ && (b < blocks.size() || p < process_blocks.size() || c < container_frames.size())) {
    const int64_t system_ns =
        b < blocks.size() ? blocks[b]->real_ns(blocks[b]->first_tick()) : kDone;
    const int64_t process_ns =
        p < process_blocks.size() ? process_blocks[p]->first_time_ns() : kDone;
    const int64_t container_ns =
        c < container_frames.size() ? container_frames[c]->time_unix_ns : kDone;
    if (b < blocks.size() && system_ns <= process_ns && system_ns <= container_ns) {
      add(*blocks[b++]);
    } else if (p < process_blocks.size() && process_ns <= container_ns) {
      add_process_block(*process_blocks[p++]);
    } else {
      add_container_frame(*container_frames[c++]);
    }
  }
  return ok_;
}

bool RecordingWriter::finish() {
  std::string trailer(1, kTrailerTag);
  put_le(trailer, blocks_);
  put_le(trailer, process_blocks_);
  put_le(trailer, container_frames_);
  put_le(trailer, bytes_ + kTrailerSizeV3);
  put_le(trailer, crc32_of(trailer));
  return put(trailer);
}

Status write_recording_atomically(const std::filesystem::path& path, const Metadata& metadata,
                                  std::span<const std::shared_ptr<const store::Block>> blocks) {
  return write_recording_atomically(path, metadata, blocks, {});
}

Status write_recording_atomically(
    const std::filesystem::path& path, const Metadata& metadata,
    std::span<const std::shared_ptr<const store::Block>> blocks,
    std::span<const std::shared_ptr<const store::ProcessBlock>> process_blocks,
    std::span<const std::shared_ptr<const store::StoredContainerFrame>> container_frames) {
  AtomicFile file(path);
  RecordingWriter writer([&file](std::string_view bytes) { return file.write(bytes); }, metadata);
  writer.add_all(blocks, process_blocks, container_frames);
  writer.finish();
  return file.commit();
}

}  // namespace flightrec::recording
