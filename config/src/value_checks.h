#pragma once
// Reading a scalar within a range, with the wording every table key and every trigger rule shares:
//   "soon" is not a duration (examples: 500us, 1ms, 2s)
//   "25h" is out of range (allowed: 1s..24h)
#include <cstdint>
#include <string>
#include <string_view>

#include "flightrec/common/result.h"
#include "flightrec/config/config.h"

namespace flightrec::config::detail {

// Follow the quoted value (or the description of a node that is no scalar).
inline constexpr std::string_view kNotADuration = " is not a duration (examples: 500us, 1ms, 2s)";
inline constexpr std::string_view kNotASize =
    " is not a size (examples: 512KiB, 256MiB, 1GiB, 1000000)";

[[nodiscard]] std::string out_of_range(std::string_view scalar, const std::string& allowed);

// The value, or why not; `allowed` describes the range in the out-of-range message ("1s..24h").
[[nodiscard]] Result<Duration> read_duration(std::string_view scalar, Duration min, Duration max,
                                             const std::string& allowed);
[[nodiscard]] Result<uint64_t> read_size(std::string_view scalar, uint64_t min, uint64_t max,
                                         const std::string& allowed);

}  // namespace flightrec::config::detail
