#pragma once
// What a recording file says about its values: the schema as it was when the file was written
// (keyed labels already resolved to names), the tick period, and free-form key/value pairs from the
// writer (an incident's rule, value and fired_at, the configuration...).
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "flightrec/sampler/series.h"

namespace flightrec::recording {

using Labels = std::vector<std::pair<std::string, std::string>>;

// The value of the first pair named `name`, "" when there is none.
[[nodiscard]] inline std::string_view value_of(const Labels& labels, std::string_view name) {
  for (const auto& [key, value] : labels) {
    if (key == name) return value;
  }
  return {};
}

struct SeriesInfo {
  std::string name;  // without the flightrec_ prefix, e.g. "cpu_seconds_total"
  Labels labels;     // fixed labels, then the key label when the series has one
  std::string unit;  // "seconds", "bytes", "ratio" or ""
  sampler::SeriesKind kind = sampler::SeriesKind::gauge;
  double scale = 1.0;  // base-unit value = stored value * scale
  std::string source;  // e.g. "/proc/stat"
  bool operator==(const SeriesInfo&) const = default;
};

struct Metadata {
  int64_t rate_ns = 0;  // tick period of the blocks
  std::string host;
  std::string flightrec_version;
  std::vector<SeriesInfo> series;  // one per stored value of a frame, in frame order
  Labels extra;                    // free-form, in the writer's order
  bool operator==(const Metadata&) const = default;
};

// The schema as it stands now. A keyed series whose slot is not bound yet gets its key label with
// the value "(unbound N)", N being the slot, so every series keeps a distinct identity.
std::vector<SeriesInfo> describe_schema(const sampler::Schema& schema);

// "name{k="v",...}" (just "name" without labels): the series' column name in CSV and in errors.
std::string series_identity(const SeriesInfo& series);

}  // namespace flightrec::recording
