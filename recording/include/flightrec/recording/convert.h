#pragma once
// Recordings as text: JSON (one row per frame, then the process frames, then the container
// frames) or CSV (system series only), produced one block at a time so memory stays bounded
// whatever the time span. Layouts are specified in docs/RECORDING_FORMAT.md.
#include <filesystem>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "flightrec/common/enum_names.h"
#include "flightrec/common/result.h"
#include "flightrec/recording/metadata.h"
#include "flightrec/recording/recording_file.h"
#include "flightrec/store/block.h"
#include "flightrec/store/cursor.h"
#include "flightrec/store/process_block.h"

namespace flightrec::recording {

namespace detail {
class ContainerNames;
}  // namespace detail

enum class DumpFormat { json, csv, raw };

// The names format= and --format take.
inline constexpr EnumName<DumpFormat> kDumpFormatNames[] = {
    {DumpFormat::json, "json"}, {DumpFormat::csv, "csv"}, {DumpFormat::raw, "raw"}};
static_assert(names_are_distinct(kDumpFormatNames) && rows_follow_values(kDumpFormatNames));

// The Content-Type each format is served with.
inline constexpr EnumName<DumpFormat> kDumpContentTypes[] = {
    {DumpFormat::json, "application/json"},
    {DumpFormat::csv, "text/csv; charset=utf-8; header=present"},
    {DumpFormat::raw, "application/octet-stream"}};
static_assert(names_are_distinct(kDumpContentTypes) && rows_follow_values(kDumpContentTypes));

[[nodiscard]] constexpr std::optional<DumpFormat> parse_dump_format(std::string_view name) {
  return value_named(kDumpFormatNames, name);
}
[[nodiscard]] constexpr std::string_view content_type(DumpFormat format) {
  return name_of(kDumpContentTypes, format);
}

inline constexpr int kJsonSchemaVersion = 1;

// Writes the frames of the blocks it is given (those inside `range`) as JSON or CSV text: every
// system block first, then every process block, then every container frame (JSON's "rows" come
// before its "processes", and those before its "containers"). The container frames are given
// once more before the process blocks, for the process rows' container names.
class TextConverter {
 public:
  // `format` is json or csv (raw is not text: use RecordingWriter). Writes the header at once.
  TextConverter(DumpFormat format, const Metadata& metadata, store::TimeRange range, Sink sink);
  // Returns false once the sink has failed. Throws std::logic_error after add_process_block.
  bool add(const std::shared_ptr<const store::Block>& block);
  ~TextConverter();
  TextConverter(const TextConverter&) = delete;
  TextConverter& operator=(const TextConverter&) = delete;
  // JSON: indexes the frame's containers, by which each process row names its container (the
  // `container_name` column: the container frame nearest the process frame); give every container
  // frame this way, in time order, before the first process block. CSV: nothing. Throws
  // std::logic_error after add_process_block, or for bytes that do not decode.
  void add_container_names(const store::StoredContainerFrame& frame);
  // JSON: the block's frames inside the range, decoded one at a time. CSV: nothing (CSV holds the
  // system series only). Returns false once the sink has failed.
  bool add_process_block(const store::ProcessBlock& block);
  // JSON: the frame when inside the range. CSV: nothing. Returns false once the sink has failed.
  // Throws std::logic_error for bytes that do not decode (a caller that did not verify them).
  bool add_container_frame(const store::StoredContainerFrame& frame);
  // Closes the document; flushes everything to the sink.
  bool finish();

 private:
  void begin_processes();
  void begin_containers();
  void write_process_frame(const process::ProcessFrame& frame);
  void write_json_header();
  void write_csv_header();
  void write_row(int64_t real_ns);
  void append_value(int64_t stored, size_t series_index);
  bool flush();

  DumpFormat format_;
  const Metadata& metadata_;
  store::TimeRange range_;
  Sink sink_;
  std::string out_;
  std::vector<int64_t> row_;
  std::unique_ptr<detail::ContainerNames> container_names_;
  // 1/scale per series when it is a whole number (0 otherwise): dividing by it gives the nearest
  // double to the decimal value (123.45, not 123.45000000000002 from multiplying by 0.01).
  std::vector<double> divisors_;
  bool first_row_ = true;
  bool in_processes_ = false;
  bool first_process_frame_ = true;
  bool in_containers_ = false;
  bool first_container_frame_ = true;
  bool ok_ = true;
};

// Unix seconds with microsecond precision, e.g. "1764478800.250000" (floor for negatives).
std::string format_unix_seconds(int64_t real_ns);

// Converts a recording file that was verified already (RecordingReader read it to complete()):
// its system blocks, then its process blocks, then its container frames, reading the file once for
// each so memory stays bounded.
// The error says what went wrong (the file changed meanwhile, or the sink failed).
Status convert_recording_file(const std::filesystem::path& path, DumpFormat format,
                              store::TimeRange range, Sink sink);

// `flightrec dump FILE --format json|csv`: verifies the whole file first (so a torn or corrupt file
// produces no partial output), then converts it a block at a time. FILE may be a pipe
// (/dev/stdin): what cannot be read twice is read into memory first. Returns 0, or 1 with an error
// naming the file written to `err`; a failed write to `out` returns 1 with no message, for the
// caller, who knows what `out` is, to report.
int dump_file(const std::filesystem::path& path, std::string_view format, std::ostream& out,
              std::ostream& err);

}  // namespace flightrec::recording
