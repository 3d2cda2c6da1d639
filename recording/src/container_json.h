#pragma once
// A container frame as JSON text, for /dump and `flightrec dump` (docs/RECORDING_FORMAT.md,
// "Container frames in JSON"): the cgroup values as the files give them, named with their unit,
// null when absent and "max" when unlimited; wall times as Unix seconds.
#include <array>
#include <string>
#include <string_view>

#include "flightrec/container/frame/container_frame.h"

namespace flightrec::recording::detail {

inline constexpr std::array<std::string_view, 7> kContainerFastReadColumns{"time",
                                                                           "row",
                                                                           "usage_us",
                                                                           "periods",
                                                                           "throttled_periods",
                                                                           "throttled_us",
                                                                           "memory_usage_bytes"};
inline constexpr std::array<std::string_view, 11> kContainerEpisodeColumns{
    "cgroup_id",         "start", "end",   "period_seconds", "quota_seconds", "period_end",
    "throttled_seconds", "cpus",  "spans", "refills",        "end_exact"};

void append_container_frame_json(std::string& out, const container::ContainerFrame& frame);

}  // namespace flightrec::recording::detail
