#pragma once
// What a completed incident hands to whoever writes it: its description (which rule fired, on
// which series, with what value, or the manual request's reason, and the window of recording it
// covers) and the tick it fired on, plus a snapshot of the ring holding it.
#include <cstdint>

#include "flightrec/model/incident_description.h"
#include "flightrec/store/snapshot.h"

namespace flightrec::trigger {

struct IncidentCapture {
  // What the incident file stores. For a manual request: rule "manual", the request's reason, no
  // condition, series or value (NaN). For a rule: its name and condition as configured, the
  // series that held and its value; no reason.
  model::IncidentDescription description;
  uint64_t tick = 0;  // tick of the frame on which it fired
};

// Writes incidents (the incident file writer implements it). Called on the writer thread only.
class IncidentSink {
 public:
  virtual ~IncidentSink() = default;
  // `blocks` holds at least the description's window as far as the ring still has it; cut the
  // window from it.
  virtual void write(const IncidentCapture& incident, store::Snapshot blocks) = 0;
};

}  // namespace flightrec::trigger
