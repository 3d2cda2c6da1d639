#pragma once
// Per-process rates between two process frames: the one rule that `flightrec top`, the incident
// viewer and replay share (/metrics' top-N ranking counts a process born in its window the same
// way).
//
// A row of the later frame is compared with the row of the earlier frame that has the same pid
// and start time, so a reused pid never yields a rate. A process that started after the earlier
// frame held nothing then: its counters count from zero, as htop shows a new process's CPU since
// it started over the refresh interval. "After" allows for the resolution of /proc start times
// (whole-second btime plus ticks, rounded down: up to 1.01 s early); a row absent from the
// earlier frame that started before that is not new (e.g. left out at processes.max_count) and
// gets no rate. A counter that went backwards, or is unknown on either side, gives no rate
// rather than a wrong one.
//
// A network backend counts a process's traffic from when it first sees it, and every reading sets
// the frame's `unattributed`: in such a frame a row without `net` had moved nothing yet, so its
// traffic in the later frame counts from zero (as /metrics counts traffic that began).
//
// Rows known only from the network backend (a process gone from /proc whose traffic the backend
// still holds) carry no start time (0). Such a row is matched by pid alone, and counts from zero
// when the earlier frame lacks its pid: it lived, or moved its traffic, between the two frames.
#include <optional>
#include <vector>

#include "flightrec/process/process_frame.h"

namespace flightrec::model {

struct NetRates {
  std::optional<double> tx_bytes;  // socket payload bytes per second
  std::optional<double> rx_bytes;
  std::optional<double> tx_packets;  // IP packets per second
  std::optional<double> rx_packets;
};

struct ProcessRates {
  std::optional<double> cpu;         // CPU seconds per second: 1.0 = one core busy throughout
  std::optional<double> read_bytes;  // storage I/O bytes per second (/proc/<pid>/io)
  std::optional<double> write_bytes;
  NetRates net;
};

struct FrameRates {
  double seconds = 0;  // from the earlier frame to the later; 0 without an earlier frame
  std::vector<ProcessRates> processes;  // one per row of the later frame, in its order
  NetRates unattributed;                // traffic the backend could not tie to a process
};

// `earlier` may be null (or not earlier than `later`): then every rate is empty.
// `earlier->processes` must ascend by pid, as ProcessFrame promises.
FrameRates process_rates(const process::ProcessFrame* earlier, const process::ProcessFrame& later);

}  // namespace flightrec::model
