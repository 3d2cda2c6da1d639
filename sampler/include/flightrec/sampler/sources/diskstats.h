#pragma once
// "diskstats": /proc/diskstats — I/O counters per block device, one run of kDiskstatsFields values
// per slot of a KeySlots table (see key_slots.h). Sector counts are stored as bytes (x 512, the
// unit /proc/diskstats always uses); times are the kernel's milliseconds.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

#include "flightrec/config/config.h"
#include "flightrec/sampler/proc_root.h"
#include "flightrec/sampler/source.h"
#include "flightrec/sampler/sources/key_slots.h"

namespace flightrec::sampler {

// reads, reads merged, read bytes, read ms, writes, writes merged, written bytes, write ms,
// I/Os in progress, I/O ms, weighted I/O ms (every kernel); discards, discards merged, discarded
// bytes, discard ms (4.18+); flushes, flush ms (5.5+). Fields a shorter line lacks stay kAbsent.
inline constexpr size_t kDiskstatsFields = 17;
inline constexpr size_t kDiskstatsRequiredFields = 11;

// The byte counters' series (names without the flightrec_ prefix), keyed by device.
namespace series_names {
inline constexpr std::string_view kDiskReadBytesTotal = "disk_read_bytes_total";
inline constexpr std::string_view kDiskWrittenBytesTotal = "disk_written_bytes_total";
}  // namespace series_names

// One line: "major minor name f1 .. fN" with N = 11, 15, 17 or more (see parse_keyed_rows).
struct DiskstatsFormat {
  static constexpr size_t kFields = kDiskstatsFields;
  static RowParse split(std::string_view line, std::string_view& device,
                        std::string_view& rest) noexcept;
  // Needs at least kDiskstatsRequiredFields numbers; sectors are converted to bytes.
  static bool read_values(std::string_view rest, std::span<int64_t, kFields> values) noexcept;
};

// Fills `out` (keys.table().capacity() * kDiskstatsFields values, slot-major) from /proc/diskstats
// bytes, binding new devices that pass the filter. A device absent from `text` stays kAbsent.
SampleStatus parse_diskstats(std::string_view text, KeySlots& keys,
                             std::span<int64_t> out) noexcept;

// The returned source is a PerKeySource. Throws std::runtime_error naming the file or the regex.
std::unique_ptr<Source> make_diskstats_source(const ProcRoot& root, const config::KeyFilter& filter,
                                              uint32_t max_keys);

}  // namespace flightrec::sampler
