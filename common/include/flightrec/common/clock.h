#pragma once
// A clock's reading in nanoseconds: CLOCK_MONOTONIC for durations and ticks, CLOCK_REALTIME for
// the Unix times frames and incidents carry.
#include <time.h>

#include <cstdint>

namespace flightrec {

inline int64_t clock_ns(clockid_t clock) noexcept {
  timespec now{};
  ::clock_gettime(clock, &now);
  return static_cast<int64_t>(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
}

}  // namespace flightrec
