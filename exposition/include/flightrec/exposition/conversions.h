#pragma once
// Prometheus wants seconds and doubles; flightrec counts nanoseconds and integers.
#include <cstdint>

namespace flightrec::exposition {

inline double seconds(int64_t ns) { return static_cast<double>(ns) * 1e-9; }
inline double as_double(uint64_t n) { return static_cast<double>(n); }

}  // namespace flightrec::exposition
