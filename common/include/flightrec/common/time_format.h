#pragma once
// RFC 3339 timestamps in UTC with millisecond precision: "2026-11-30T04:12:47.123Z".
#include <cstdint>
#include <string>

namespace flightrec {

// Rounds toward the past, so a time never appears later than it was.
std::string format_rfc3339_ms(int64_t unix_ns);

}  // namespace flightrec
