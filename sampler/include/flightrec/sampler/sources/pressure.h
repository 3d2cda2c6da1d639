#pragma once
// "pressure": /proc/pressure/{cpu,memory,io} (PSI) — the cumulative stall time counters, in
// microseconds, of the "some" and "full" lines of each file. The avg10/60/300 figures are not
// kept: they are derived from the totals, which the recorder can do at any window.
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

#include "flightrec/sampler/proc_root.h"
#include "flightrec/sampler/source.h"

namespace flightrec::sampler {

// The files read, in the order of their values; each contributes {some total, full total}.
inline constexpr std::array<std::string_view, 3> kPressureResources{"cpu", "memory", "io"};
inline constexpr size_t kPressureValuesPerFile = 2;

// The series of each file's {some, full} totals (names without the flightrec_ prefix), labelled
// with the resource.
namespace series_names {
inline constexpr std::string_view kPressureSomeSecondsTotal = "pressure_some_seconds_total";
inline constexpr std::string_view kPressureFullSecondsTotal = "pressure_full_seconds_total";
}  // namespace series_names
inline constexpr std::string_view kPressureResourceLabel = "resource";

// Fills {some, full} from one pressure file's bytes. A missing line (cpu has no "full" before
// Linux 5.13) or a malformed total stays kAbsent.
SampleStatus parse_pressure(std::string_view text,
                            std::span<int64_t, kPressureValuesPerFile> out) noexcept;

// Throws SourceUnavailable when <procfs>/pressure does not exist or none of its files can be read
// (PSI disabled). A single unreadable file is logged once; its values stay kAbsent (partial).
std::unique_ptr<Source> make_pressure_source(const ProcRoot& root);

}  // namespace flightrec::sampler
