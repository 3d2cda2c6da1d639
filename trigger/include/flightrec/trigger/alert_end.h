#pragma once
// An alert's end recorded on its incident once the file is written: the resolved notification
// came after the incident's window had been captured. The incident gets `alert.status: resolved`
// and `alert.ends_at`, and its window grows towards endsAt, at most incidents.alerts.max_extension
// past its stored end, with the recording the ring still holds after the stored frames
// (docs/TRIGGERS.md, "Alertmanager and Grafana").
#include <chrono>
#include <cstdint>

#include "flightrec/model/incident_description.h"
#include "flightrec/model/incident_handoff.h"
#include "flightrec/store/stats.h"

namespace flightrec::trigger {

// The window end wanted for an alert that ended at `ends_at_ns`: endsAt, but no more than
// `max_extension` after `window_to_ns`; `window_to_ns` itself when the alert ended inside the
// window or extension is off (0).
[[nodiscard]] int64_t extended_window_to(int64_t window_to_ns, int64_t ends_at_ns,
                                         std::chrono::nanoseconds max_extension);

// The stored incident with the end recorded and the window extended. The ring continues the stored
// recording only while it still holds the stored window's end (same daemon run, no gap): then
// its frames up to the wanted end are appended, else none. `alert.window_held_to` says how far
// the recording now reaches towards the wanted end.
[[nodiscard]] model::RevisedIncident ended_incident(const model::IncidentDescription& stored,
                                                    int64_t ends_at_ns,
                                                    std::chrono::nanoseconds max_extension,
                                                    const store::RingStats& ring);

}  // namespace flightrec::trigger
