#pragma once
// "loadavg": /proc/loadavg — the 1, 5 and 15 minute load averages as integer hundredths (the
// kernel prints exactly two decimals), and the runnable and existing thread counts ("2/345").
// The kernel recomputes the averages every 5 s; the thread counts are exact at each read.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

#include "flightrec/sampler/proc_root.h"
#include "flightrec/sampler/source.h"

namespace flightrec::sampler {

// load1, load5, load15 (hundredths), runnable threads, threads.
inline constexpr size_t kLoadavgValues = 5;

// The load averages' series (names without the flightrec_ prefix).
namespace series_names {
inline constexpr std::string_view kLoad1 = "load1";
inline constexpr std::string_view kLoad5 = "load5";
inline constexpr std::string_view kLoad15 = "load15";
}  // namespace series_names

// Fills `out` from /proc/loadavg bytes; a malformed field and everything after it stay kAbsent.
SampleStatus parse_loadavg(std::string_view text, std::span<int64_t, kLoadavgValues> out) noexcept;

// Throws std::runtime_error naming the file when it cannot be opened or read.
std::unique_ptr<Source> make_loadavg_source(const ProcRoot& root);

}  // namespace flightrec::sampler
