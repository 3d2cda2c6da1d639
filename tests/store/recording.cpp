#include "recording.h"

#include <limits>

#include "flightrec/sampler/series.h"

namespace flightrec::store::testing {
namespace {

using sampler::kAbsent;

bool chance(std::mt19937_64& rng, double p) { return std::bernoulli_distribution(p)(rng); }

int64_t uniform(std::mt19937_64& rng, int64_t lo, int64_t hi) {
  return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
}

enum class Shape {
  busy_counter,
  user_hz_counter,
  byte_counter,
  idle_counter,
  rare_gauge,
  noisy_gauge,
  unbound_slot
};

Shape shape_of(uint32_t s) {
  // Roughly the mix of a 2-CPU host's /proc/stat, meminfo, vmstat, diskstats and net/dev with a
  // few unbound disk and interface slots.
  switch (s % 10) {
    case 0:
    case 1:
      return Shape::user_hz_counter;
    case 2:
      return Shape::busy_counter;
    case 3:
      return Shape::byte_counter;
    case 4:
    case 5:
      return Shape::idle_counter;
    case 6:
    case 7:
      return Shape::rare_gauge;
    case 8:
      return Shape::noisy_gauge;
    default:
      return s % 20 == 9 ? Shape::unbound_slot : Shape::rare_gauge;
  }
}

}  // namespace

std::vector<sampler::FrameHeader> tick_headers(size_t frames, std::mt19937_64& rng, bool gaps,
                                               uint64_t first_tick) {
  std::vector<sampler::FrameHeader> headers(frames);
  uint64_t tick = first_tick;
  for (auto& header : headers) {
    if (gaps && chance(rng, 0.003)) tick += static_cast<uint64_t>(uniform(rng, 1, 3));
    const int64_t late = uniform(rng, 20'000, 200'000);
    header.tick = tick;
    header.mono_ns = 5'000'000'000 + static_cast<int64_t>(tick) * kRateNs + late;
    header.real_ns = kStartRealNs + static_cast<int64_t>(tick) * kRateNs + late;
    ++tick;
  }
  return headers;
}

Recording realistic_recording(size_t frames, uint32_t series, uint64_t seed) {
  std::mt19937_64 rng(seed);
  Recording rec;
  rec.series = series;
  rec.headers = tick_headers(frames, rng);
  rec.values.resize(frames * series);
  for (uint32_t s = 0; s < series; ++s) {
    const Shape shape = shape_of(s);
    int64_t value = uniform(rng, 0, int64_t{1} << 40);
    const int64_t busy_rate = uniform(rng, 1, 60);
    for (size_t f = 0; f < frames; ++f) {
      switch (shape) {
        case Shape::busy_counter:
          value += uniform(rng, 0, 2 * busy_rate);
          break;
        case Shape::user_hz_counter:
          value += (f % 10 == 0 && chance(rng, 0.6)) ? 1 : 0;
          break;
        case Shape::byte_counter:
          if (chance(rng, 0.3)) value += 66 * uniform(rng, 1, 20);
          break;
        case Shape::idle_counter:
          value += chance(rng, 0.01) ? uniform(rng, 1, 8) : 0;
          break;
        case Shape::rare_gauge:
          if (chance(rng, 0.002)) value += uniform(rng, -4096, 4096);
          break;
        case Shape::noisy_gauge:
          value += uniform(rng, -3, 3);
          break;
        case Shape::unbound_slot:
          break;
      }
      if (chance(rng, 0.0002)) value = uniform(rng, 0, int64_t{1} << 20);  // reset or re-plug
      int64_t stored = shape == Shape::unbound_slot ? kAbsent : value;
      if (chance(rng, 0.0005)) stored = kAbsent;  // a failed read
      rec.values[f * series + s] = stored;
    }
  }
  return rec;
}

Recording adversarial_recording(size_t frames, uint32_t series, uint64_t seed) {
  std::mt19937_64 rng(seed);
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  Recording rec;
  rec.series = series;
  rec.headers = tick_headers(frames, rng);
  rec.values.resize(frames * series);
  for (uint32_t s = 0; s < series; ++s) {
    int64_t value = 0;
    for (size_t f = 0; f < frames; ++f) {
      switch ((s + static_cast<uint32_t>(rng() % 4)) % 7) {
        case 0:
          value = f % 2 == 0 ? kMin : kMax;
          break;  // INT64_MIN <-> INT64_MAX
        case 1:
          value = static_cast<int64_t>(rng());
          break;  // any 64-bit word
        case 2:
          value = kMax - uniform(rng, 0, 3);
          break;  // just below the top
        case 3:
          value = kMin + uniform(rng, 1, 3);
          break;  // just above kAbsent
        case 4:
          value = static_cast<int64_t>(static_cast<uint64_t>(value) + rng() % 5);
          break;
        case 5:
          value = kAbsent;
          break;
        default:
          value = -uniform(rng, 0, 1000);
          break;  // negative deltas
      }
      rec.values[f * series + s] = value;
    }
  }
  return rec;
}

}  // namespace flightrec::store::testing
