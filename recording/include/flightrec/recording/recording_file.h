#pragma once
// The recording file: the raw format of GET /dump?format=raw and of incident files. Versioned,
// checksummed per section, and ended by a trailer so that a file cut short is detected even when
// the cut falls between two blocks. It holds system blocks, (from version 2) process blocks and
// (from version 3) container frames.
// The byte layout is specified in docs/RECORDING_FORMAT.md.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <istream>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "flightrec/common/atomic_file.h"
#include "flightrec/common/result.h"
#include "flightrec/container/frame/container_frame.h"
#include "flightrec/process/process_frame.h"
#include "flightrec/recording/metadata.h"
#include "flightrec/store/block.h"
#include "flightrec/store/container_ring.h"
#include "flightrec/store/process_block.h"

namespace flightrec::recording {

// Writers write kFormatVersion; readers read every version from kOldestFormatVersion on.
inline constexpr uint32_t kFormatVersion = 3;
inline constexpr uint32_t kOldestFormatVersion = 1;

// read_recording decodes every process frame into memory; past this many rows (processes and
// sockets over all frames, ~330 bytes each) it refuses and RecordingReader must stream instead.
inline constexpr uint64_t kMaxRecordingProcessRows = 1u << 22;
// The same for container frames: rows over all frames (~1.5 KB each decoded).
inline constexpr uint64_t kMaxRecordingContainerRows = 1u << 20;

using BlockList = std::vector<std::shared_ptr<const store::Block>>;
using ProcessBlockList = std::vector<std::shared_ptr<const store::ProcessBlock>>;

// Where output goes, a piece at a time; returns false once it can take no more (client gone,
// disk full), after which producers stop.
using Sink = std::function<bool(std::string_view bytes)>;

// Writes a recording to a sink as it goes: the header and metadata at construction, each block on
// add() or add_process_block(), the trailer on finish(). Holds no block: memory stays bounded
// whatever the length.
class RecordingWriter {
 public:
  RecordingWriter(Sink sink, const Metadata& metadata);
  // Throws std::invalid_argument when the block's series count or rate differs from the metadata
  // (a caller bug). Returns false once the sink has failed.
  bool add(const store::Block& block);
  // Returns false once the sink has failed.
  bool add_process_block(const store::ProcessBlock& block);
  // One `C` record; returns false once the sink has failed.
  bool add_container_frame(const store::StoredContainerFrame& frame);
  // The lists (each oldest first) as one sequence of records in order of start time.
  bool add_all(
      std::span<const std::shared_ptr<const store::Block>> blocks,
      std::span<const std::shared_ptr<const store::ProcessBlock>> process_blocks,
      std::span<const std::shared_ptr<const store::StoredContainerFrame>> container_frames = {});
  // Writes the trailer; without it readers report the file as torn.
  bool finish();

  [[nodiscard]] uint64_t bytes_written() const noexcept { return bytes_; }
  [[nodiscard]] uint64_t blocks_written() const noexcept { return blocks_; }
  [[nodiscard]] uint64_t process_blocks_written() const noexcept { return process_blocks_; }
  [[nodiscard]] uint64_t container_frames_written() const noexcept { return container_frames_; }

 private:
  bool put(std::string_view bytes);

  Sink sink_;
  size_t series_;
  int64_t rate_ns_;
  uint64_t bytes_ = 0;
  uint64_t blocks_ = 0;
  uint64_t process_blocks_ = 0;
  uint64_t container_frames_ = 0;
  bool ok_ = true;
};

// Writes a whole recording to `path` so that readers see the old file or the complete new one:
// temporary file, fsync, rename, directory fsync. Streams: memory does not grow with the blocks.
Status write_recording_atomically(const std::filesystem::path& path, const Metadata& metadata,
                                  std::span<const std::shared_ptr<const store::Block>> blocks);
// The same with process blocks and container frames, records interleaved in order of start time.
Status write_recording_atomically(
    const std::filesystem::path& path, const Metadata& metadata,
    std::span<const std::shared_ptr<const store::Block>> blocks,
    std::span<const std::shared_ptr<const store::ProcessBlock>> process_blocks,
    std::span<const std::shared_ptr<const store::StoredContainerFrame>> container_frames = {});

// One record of a recording: a system block, a process block or a container frame (its bytes,
// checked to decode); all null at the end of the file or on error.
struct RecordingRecord {
  std::shared_ptr<const store::Block> block;
  std::shared_ptr<const store::ProcessBlock> process_block;
  std::shared_ptr<const store::StoredContainerFrame> container_frame;
  explicit operator bool() const noexcept {
    return block != nullptr || process_block != nullptr || container_frame != nullptr;
  }
};

// Reads a recording a record at a time. Any problem (not a recording, unknown version, bad CRC,
// torn file) ends reading with error() set, naming the section, block index and byte offset.
class RecordingReader {
 public:
  // `process_check`: how much of each process block is checked as it is read (framing: the
  // frames are checked when decoded, store::ProcessBlock::decode_checked).
  explicit RecordingReader(
      std::istream& in, store::ProcessBlockCheck process_check = store::ProcessBlockCheck::frames);

  // Reads the header and metadata; false (with error()) when they are not valid.
  bool open();
  [[nodiscard]] const Metadata& metadata() const noexcept { return metadata_; }
  // The next record, system or process block or container frame, in file order; empty at the end
  // of the file or on error. complete() tells which.
  RecordingRecord next_record();
  // The next system block; other records on the way are checked and skipped. Null at the end of
  // the file or on error.
  std::shared_ptr<const store::Block> next();
  // The version in the file's header (after a successful open()).
  [[nodiscard]] uint32_t format_version() const noexcept { return version_; }
  // True once the trailer has been read and matched everything before it.
  [[nodiscard]] bool complete() const noexcept { return complete_; }
  [[nodiscard]] const std::string& error() const noexcept { return error_; }

 private:
  bool read_exactly(size_t size, std::string& out, std::string_view what);
  bool read_record_bytes(std::string_view name, std::string& bytes);
  // Reads record `name` and parses it as one BlockType (store::Block or store::ProcessBlock) that
  // must take all of its bytes; null, after fail(), when it does not.
  template <typename BlockType>
  std::shared_ptr<const BlockType> read_whole_block(const std::string& name);
  RecordingRecord read_block(const std::string& name);
  RecordingRecord read_process_block(const std::string& name);
  RecordingRecord read_container_frame(const std::string& name);
  bool read_trailer(uint64_t trailer_at);
  [[nodiscard]] std::string records_so_far() const;
  bool fail(std::string message);

  std::istream& in_;
  store::ProcessBlockCheck process_check_;
  uint64_t offset_ = 0;
  uint64_t blocks_ = 0;
  uint64_t process_blocks_ = 0;
  uint64_t container_frames_ = 0;
  uint32_t version_ = 0;
  Metadata metadata_;
  bool complete_ = false;
  bool failed_ = false;
  std::string error_;
};

struct Recording {
  Metadata meta;
  std::vector<std::shared_ptr<const store::Block>> blocks;
  // Every frame of the process blocks, decoded, in ascending time (empty for version 1 files).
  std::vector<process::ProcessFrame> process_frames;
  // Every container frame, decoded, in ascending time; empty for files before version 3 and for
  // recordings of a daemon without a container tier.
  std::vector<container::ContainerFrame> container_frames;
  // The process blocks as stored (framing and CRC checked, frames not decoded), in file order,
  // from read_recording_blocks only; process_frames is then empty.
  ProcessBlockList process_blocks;
};

// Whether `path` can be opened as a recording; the error says why not ("is a directory, not a
// recording file", "cannot open: No such file or directory").
Status check_openable(const std::filesystem::path& path);

// Whole-file readers: the recording only when every section checked out, else the error. A
// recording whose process frames hold more than `max_process_rows` rows, or whose container frames
// hold more than kMaxRecordingContainerRows, is refused (stream it with RecordingReader).
Result<Recording> read_recording(std::span<const uint8_t> bytes,
                                 uint64_t max_process_rows = kMaxRecordingProcessRows);
// Errors start with the path.
Result<Recording> read_recording(const std::filesystem::path& path,
                                 uint64_t max_process_rows = kMaxRecordingProcessRows);

// The same, but the process blocks stay as stored (Recording::process_blocks) rather than decoded
// into process_frames, and only their framing and CRC are checked (no row limit applies): a reader
// that shows a few frames at a time (replay) decodes only the blocks it shows, with
// store::ProcessBlock::decode_checked, and opening a recording of thousands of processes neither
// decodes nor holds every frame.
Result<Recording> read_recording_blocks(std::span<const uint8_t> bytes);
Result<Recording> read_recording_blocks(const std::filesystem::path& path);

}  // namespace flightrec::recording
