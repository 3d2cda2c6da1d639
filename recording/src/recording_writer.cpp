#include <stdexcept>

#include "flightrec/recording/detail/atomic_stream.h"
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

bool RecordingWriter::finish() {
  std::string trailer(1, kTrailerTag);
  put_le(trailer, blocks_);
  put_le(trailer, bytes_ + kTrailerSize);
  put_le(trailer, crc32_of(trailer));
  return put(trailer);
}

snapshot::WriteResult write_recording_atomically(
    const std::filesystem::path& path, const Metadata& metadata,
    std::span<const std::shared_ptr<const store::Block>> blocks) {
  AtomicStreamFile file(path);
  RecordingWriter writer([&file](std::string_view bytes) { return file.write(bytes); }, metadata);
  for (const auto& block : blocks) {
    if (!writer.add(*block)) break;
  }
  writer.finish();
  return file.commit();
}

}  // namespace flightrec::recording
