#pragma once
// Test recordings: frames of values in the shapes /proc produces, and adversarial ones.
#include <cstdint>
#include <random>
#include <span>
#include <vector>

#include "flightrec/sampler/frame.h"

namespace flightrec::store::testing {

struct Recording {
  uint32_t series = 0;
  std::vector<sampler::FrameHeader> headers;
  std::vector<int64_t> values;  // row-major: headers.size() x series

  [[nodiscard]] std::span<const int64_t> row(size_t frame) const {
    return std::span(values).subspan(frame * series, series);
  }
  [[nodiscard]] int64_t at(size_t frame, uint32_t s) const { return values[frame * series + s]; }
};

inline constexpr int64_t kRateNs = 1'000'000;
inline constexpr int64_t kStartRealNs = 1'700'000'000'000'000'000;

// Frame headers at 1 ms: consecutive ticks with a missed tick now and then (when `gaps`), reads
// starting 20-200 us after each deadline.
std::vector<sampler::FrameHeader> tick_headers(size_t frames, std::mt19937_64& rng,
                                               bool gaps = true, uint64_t first_tick = 0);

// Synthetic-but-realistic /proc data: cumulative counters with small random increments, USER_HZ
// counters that step every ~10 ms, byte counters, gauges that rarely move, occasional jumps
// (counter resets, device re-plug), unbound key slots (all kAbsent) and sporadic kAbsent.
Recording realistic_recording(size_t frames, uint32_t series, uint64_t seed);

// Values drawn to break codecs: the int64 extremes, kAbsent, alternating INT64_MIN/INT64_MAX,
// random 64-bit words, tiny and huge deltas.
Recording adversarial_recording(size_t frames, uint32_t series, uint64_t seed);

}  // namespace flightrec::store::testing
