#pragma once
// What one stored value means. Every value the sampler records is an int64 in the unit the kernel
// reports it in (USER_HZ ticks, microseconds, bytes, sectors are converted to bytes at parse time);
// `scale` turns it into the series' base unit (seconds, bytes, ...), so storage stays exact
// integers.
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "flightrec/common/enum_names.h"

namespace flightrec::sampler {

// A value the source could not read this tick (file error, device gone, slot not yet bound).
inline constexpr int64_t kAbsent = std::numeric_limits<int64_t>::min();

enum class SeriesKind : uint8_t {
  counter,  // cumulative, only goes up; a decrease is a reset, rates over it have no value
  gauge,    // current level
};
// The "kind" of a series in /dump's JSON and the snapshot's.
inline constexpr EnumName<SeriesKind> kSeriesKindNames[] = {{SeriesKind::counter, "counter"},
                                                            {SeriesKind::gauge, "gauge"}};
static_assert(names_are_distinct(kSeriesKindNames) && rows_follow_values(kSeriesKindNames));
[[nodiscard]] constexpr std::string_view kind_name(SeriesKind kind) {
  return name_of(kSeriesKindNames, kind);
}

class SlotTable;

struct SeriesDesc {
  // Metric family name without the flightrec_ prefix, snake_case, with its unit suffix and, for
  // counters, _total: e.g. "cpu_seconds_total", "memory_available_bytes".
  std::string name;
  std::string help;
  std::string unit;  // base unit: "seconds", "bytes", "ratio" or "" for plain counts
  SeriesKind kind = SeriesKind::gauge;
  double scale = 1.0;  // base-unit value = stored value * scale
  std::vector<std::pair<std::string, std::string>> labels;  // fixed labels, e.g. {"cpu","0"}
  // Keyed series (per disk, per interface) carry one more label whose value is bound at run time:
  // keys->name(key_slot) once keys->bound() > key_slot; until then the series holds kAbsent.
  const SlotTable* keys = nullptr;
  uint32_t key_slot = 0;
  std::string key_label;  // e.g. "device"
  std::string source;     // the file it comes from, e.g. "/proc/stat"
};

using Schema = std::vector<SeriesDesc>;

}  // namespace flightrec::sampler
