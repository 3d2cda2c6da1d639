#include "flightrec/sampler/sources/diskstats.h"

#include <array>
#include <string>
#include <utility>

#include "flightrec/sampler/file_reader.h"
#include "flightrec/sampler/sources/parsing.h"
#include "keyed_file_source.h"
#include "series_builder.h"

namespace flightrec::sampler {
namespace {

constexpr std::string_view kSourcePath = "/proc/diskstats";
constexpr int64_t kBytesPerSector = 512;  // fixed by the kernel ABI, whatever the device's sector
constexpr double kSecondsPerMs = 1e-3;

// Fields that count sectors, stored as bytes.
constexpr std::array<size_t, 3> kSectorFields{2, 6, 13};

constexpr std::array<detail::SeriesInfo, kDiskstatsFields> kSeries{{
    {"disk_reads_completed_total", SeriesKind::counter, "", 1.0, "Reads completed."},
    {"disk_reads_merged_total", SeriesKind::counter, "", 1.0,
     "Adjacent reads merged before being issued."},
    {series_names::kDiskReadBytesTotal, SeriesKind::counter, "bytes", 1.0, "Bytes read."},
    {"disk_read_time_seconds_total", SeriesKind::counter, "seconds", kSecondsPerMs,
     "Time spent on reads, summed over requests."},
    {"disk_writes_completed_total", SeriesKind::counter, "", 1.0, "Writes completed."},
    {"disk_writes_merged_total", SeriesKind::counter, "", 1.0,
     "Adjacent writes merged before being issued."},
    {series_names::kDiskWrittenBytesTotal, SeriesKind::counter, "bytes", 1.0, "Bytes written."},
    {"disk_write_time_seconds_total", SeriesKind::counter, "seconds", kSecondsPerMs,
     "Time spent on writes, summed over requests."},
    {"disk_io_now", SeriesKind::gauge, "", 1.0, "I/Os in progress."},
    {"disk_io_time_seconds_total", SeriesKind::counter, "seconds", kSecondsPerMs,
     "Time the device had I/O in progress."},
    {"disk_io_time_weighted_seconds_total", SeriesKind::counter, "seconds", kSecondsPerMs,
     "I/O time weighted by the number of I/Os in progress."},
    {"disk_discards_completed_total", SeriesKind::counter, "", 1.0,
     "Discards completed (Linux 4.18+)."},
    {"disk_discards_merged_total", SeriesKind::counter, "", 1.0,
     "Adjacent discards merged (Linux 4.18+)."},
    {"disk_discarded_bytes_total", SeriesKind::counter, "bytes", 1.0,
     "Bytes discarded (Linux 4.18+)."},
    {"disk_discard_time_seconds_total", SeriesKind::counter, "seconds", kSecondsPerMs,
     "Time spent on discards (Linux 4.18+)."},
    {"disk_flush_requests_total", SeriesKind::counter, "", 1.0,
     "Flush requests completed (Linux 5.5+)."},
    {"disk_flush_requests_time_seconds_total", SeriesKind::counter, "seconds", kSecondsPerMs,
     "Time spent on flush requests (Linux 5.5+)."},
}};

}  // namespace

RowParse DiskstatsFormat::split(std::string_view line, std::string_view& device,
                                std::string_view& rest) noexcept {
  parsing::skip_blanks(line);
  if (line.empty()) return RowParse::skip;
  int64_t major = 0;
  int64_t minor = 0;
  if (!parsing::read_count(line, major) || !parsing::read_count(line, minor)) {
    return RowParse::malformed;
  }
  device = parsing::next_token(line);
  if (device.empty()) return RowParse::malformed;
  rest = line;
  return RowParse::row;
}

bool DiskstatsFormat::read_values(std::string_view rest,
                                  std::span<int64_t, kFields> values) noexcept {
  size_t read = 0;
  while (read < values.size() && parsing::read_count(rest, values[read])) ++read;
  parsing::skip_blanks(rest);
  // Newer kernels may add columns after the 17 known ones; anything else is garbage.
  if (read < kDiskstatsRequiredFields || (read < values.size() && !rest.empty())) return false;
  for (const size_t field : kSectorFields) {
    values[field] = parsing::scaled_or_absent(values[field], kBytesPerSector);
  }
  return true;
}

SampleStatus parse_diskstats(std::string_view text, KeySlots& keys,
                             std::span<int64_t> out) noexcept {
  return parse_keyed_rows<DiskstatsFormat>(text, keys, out);
}

std::unique_ptr<Source> make_diskstats_source(const ProcRoot& root, const config::KeyFilter& filter,
                                              uint32_t max_keys) {
  return std::make_unique<detail::KeyedFileSource<DiskstatsFormat>>(
      "diskstats", kSourcePath, kSeries, FileReader(root.proc("diskstats")), filter, max_keys);
}

}  // namespace flightrec::sampler
