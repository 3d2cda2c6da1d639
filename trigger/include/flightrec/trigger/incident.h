#pragma once
// What a completed incident hands to whoever writes it: which rule fired, on which series, with
// what value, and the window of recording it covers, plus a snapshot of the ring holding it.
#include <cstdint>
#include <string>

#include "flightrec/store/snapshot.h"

namespace flightrec::trigger {

struct IncidentCapture {
  std::string rule;       // the rule's name, or "manual"
  std::string condition;  // e.g. "cpu_busy_ratio{cpu=\"total\"} > 0.8"; empty for manual
  std::string series;     // the series that held, e.g. cpu_busy_ratio{cpu="3"}; empty for manual
  std::string reason;     // the manual request's reason; empty for rules
  double value = 0.0;     // the series' value when it fired; NaN for manual
  int64_t fired_at_real_ns = 0;
  uint64_t tick = 0;  // tick of the frame on which it fired
  // [fired - pre, fired + post] in CLOCK_REALTIME ns; `from` may precede the oldest recorded frame.
  int64_t from_real_ns = 0;
  int64_t to_real_ns = 0;
};

// Writes incidents (the incident file writer implements it). Called on the writer thread only.
class IncidentSink {
 public:
  virtual ~IncidentSink() = default;
  // `blocks` holds at least [from, to] as far as the ring still has it; cut the window from it.
  virtual void write(const IncidentCapture& incident, store::Snapshot blocks) = 0;
};

}  // namespace flightrec::trigger
