#pragma once
// Number rendering for OpenMetrics text.
#include <cstdint>
#include <string>

namespace flightrec::exposition::detail {

// A sample value: NaN, +Inf, -Inf; whole numbers below 2^53 as integers ("17", "1000000");
// anything else in the shortest form that reads back to the same double ("0.1", "1.5e-07",
// "1700000000.5").
void append_value(std::string& out, double value);
void append_value(std::string& out, std::uint64_t value);

// An `le` or `quantile` label value in the spec's canonical form: Go's %g, with ".0" added when
// that has neither a point nor an exponent ("1.0", "0.005", "1e+06", "+Inf").
void append_canonical(std::string& out, double value);

}  // namespace flightrec::exposition::detail
