#pragma once
// The recording file: the raw format of GET /dump?format=raw and of incident files. Versioned,
// checksummed per section, and ended by a trailer so that a file cut short is detected even when
// the cut falls between two blocks. The byte layout is specified in docs/RECORDING_FORMAT.md.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <istream>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "flightrec/recording/metadata.h"
#include "flightrec/snapshot/atomic_file.h"
#include "flightrec/store/block.h"

namespace flightrec::recording {

inline constexpr uint32_t kFormatVersion = 1;

// Where output goes, a piece at a time; returns false once it can take no more (client gone,
// disk full), after which producers stop.
using Sink = std::function<bool(std::string_view bytes)>;

// Writes a recording to a sink as it goes: the header and metadata at construction, each block on
// add(), the trailer on finish(). Holds no block: memory stays bounded whatever the length.
class RecordingWriter {
 public:
  RecordingWriter(Sink sink, const Metadata& metadata);
  // Throws std::invalid_argument when the block's series count or rate differs from the metadata
  // (a caller bug). Returns false once the sink has failed.
  bool add(const store::Block& block);
  // Writes the trailer; without it readers report the file as torn.
  bool finish();

  [[nodiscard]] uint64_t bytes_written() const noexcept { return bytes_; }
  [[nodiscard]] uint64_t blocks_written() const noexcept { return blocks_; }

 private:
  bool put(std::string_view bytes);

  Sink sink_;
  size_t series_;
  int64_t rate_ns_;
  uint64_t bytes_ = 0;
  uint64_t blocks_ = 0;
  bool ok_ = true;
};

// Writes a whole recording to `path` so that readers see the old file or the complete new one:
// temporary file, fsync, rename, directory fsync. Streams: memory does not grow with the blocks.
snapshot::WriteResult write_recording_atomically(
    const std::filesystem::path& path, const Metadata& metadata,
    std::span<const std::shared_ptr<const store::Block>> blocks);

// Reads a recording a block at a time. Any problem (not a recording, unknown version, bad CRC,
// torn file) ends reading with error() set, naming the section, block index and byte offset.
class RecordingReader {
 public:
  explicit RecordingReader(std::istream& in);

  // Reads the header and metadata; false (with error()) when they are not valid.
  bool open();
  [[nodiscard]] const Metadata& metadata() const noexcept { return metadata_; }
  // The next block; null at the end of the file or on error. complete() tells which.
  std::shared_ptr<const store::Block> next();
  // True once the trailer has been read and matched everything before it.
  [[nodiscard]] bool complete() const noexcept { return complete_; }
  [[nodiscard]] const std::string& error() const noexcept { return error_; }

 private:
  bool read_exactly(size_t size, std::string& out, std::string_view what);
  bool read_trailer(uint64_t trailer_at);
  bool fail(std::string message);

  std::istream& in_;
  uint64_t offset_ = 0;
  uint64_t blocks_ = 0;
  Metadata metadata_;
  bool complete_ = false;
  bool failed_ = false;
  std::string error_;
};

struct Recording {
  Metadata meta;
  std::vector<std::shared_ptr<const store::Block>> blocks;
};

struct ReadResult {
  Recording recording;
  std::string error;  // empty when the whole file was read and verified
  [[nodiscard]] bool ok() const noexcept { return error.empty(); }
};

// Whole-file readers: the recording only when every section checked out.
ReadResult read_recording(std::span<const uint8_t> bytes);
ReadResult read_recording(const std::filesystem::path& path);  // errors start with the path

}  // namespace flightrec::recording
