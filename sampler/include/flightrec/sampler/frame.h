#pragma once
// One tick's worth of values as it travels from the sampler thread to the recorder thread.
// The value count is fixed at start-up by the schema, so a frame is a fixed-size run of words.
#include <cstdint>

namespace flightrec::sampler {

struct FrameHeader {
  uint64_t tick = 0;     // index of the tick since the sampler started: time = start + tick * rate
  int64_t mono_ns = 0;   // CLOCK_MONOTONIC when the tick's reads began
  int64_t real_ns = 0;   // CLOCK_REALTIME at the same moment (Unix epoch, ns)
};

}  // namespace flightrec::sampler
