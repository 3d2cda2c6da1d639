#pragma once
// The top-N rankings of processes over a span of time: by CPU, by memory, by network traffic.
// /metrics publishes them for its export window; ties go to the lower pid so a ranking stays
// stable from one reading to the next, and a process that did nothing is not ranked (zeros
// would only fill the ranking with noise).
#include <cstddef>
#include <vector>

#include "flightrec/model/process_rates.h"
#include "flightrec/process/process_frame.h"

namespace flightrec::model {

struct Ranked {
  double value = 0;  // CPU seconds per second, resident bytes, or bytes per second
  size_t row = 0;    // index into the frame's processes (and the rates')
};

struct Rankings {
  std::vector<Ranked> cpu;      // by FrameRates CPU
  std::vector<Ranked> memory;   // by the row's resident set size
  std::vector<Ranked> network;  // by socket payload bytes per second, transmit + receive
};

// At most `top_n` of each, largest first. `rates` are the rates of `frame` (process_rates).
Rankings rank_processes(const process::ProcessFrame& frame, const FrameRates& rates, size_t top_n);

}  // namespace flightrec::model
