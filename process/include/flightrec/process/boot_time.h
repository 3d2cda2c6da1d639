#pragma once
// Boot time from /proc/stat's "btime" line, to turn a process's starttime (ticks after boot)
// into Unix time.
#include <cstdint>
#include <optional>
#include <string_view>

namespace flightrec::process {

// Seconds since the Unix epoch, or nullopt when the text has no well-formed btime line.
std::optional<int64_t> parse_boot_time(std::string_view proc_stat);

}  // namespace flightrec::process
