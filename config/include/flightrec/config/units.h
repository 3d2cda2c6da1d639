#pragma once
// Durations and byte sizes as written in the config file, and their canonical spelling for
// messages.
//
// Durations: one or more <number><unit> parts with units in decreasing order, e.g. "250us", "1ms",
// "1m30s", "1.5s", "1h"; units ns, us (or µs), ms, s, m, h; "0" alone is zero. Parsing is exact:
// a value that is not a whole number of nanoseconds, or overflows, is rejected.
//
// Sizes: <number>[unit] with units B, KiB, MiB, GiB, TiB (powers of 1024) or KB, MB, GB, TB (powers
// of 1000); a bare number is bytes. Fractions are allowed when they give whole bytes ("1.5KiB").
//
// Percentages: <number>% with at most four decimals, kept exactly in millionths ("10%" = 100000,
// "0.25%" = 2500); "0" alone is zero.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "flightrec/config/config.h"

namespace flightrec::config {

[[nodiscard]] std::optional<Duration> parse_duration(std::string_view text);
[[nodiscard]] std::optional<uint64_t> parse_size(std::string_view text);
[[nodiscard]] std::optional<uint64_t> parse_percent_ppm(std::string_view text);

// Canonical, exact spellings that parse back to the same value: "1ms", "1m30s", "1.5s", "256MiB",
// "1MB", "1000001B" (and the percentages below). Negative durations get a leading '-' (they never
// parse).
[[nodiscard]] std::string format_duration(Duration duration);
[[nodiscard]] std::string format_size(uint64_t bytes);
// "10%", "0.25%", "0%".
[[nodiscard]] std::string format_percent_ppm(uint64_t ppm);

}  // namespace flightrec::config
