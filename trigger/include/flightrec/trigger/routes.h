#pragma once
// POST /-/trigger[?reason=TEXT]: asks the engine for a manual incident (202), joins the one still
// pending (202), or refuses within incidents.manual_interval of the last (429 with Retry-After).
// The incident appears at /incidents once its post window ends; a 202 names its id (Location:
// /incidents/{id}, and the body: text, or JSON when the client prefers application/json), so a
// script can wait for it and fetch it.
#include <cstdint>
#include <functional>
#include <string>

#include "flightrec/http/route.h"
#include "flightrec/trigger/engine.h"
#include "flightrec/trigger/manual_gate.h"

namespace flightrec::trigger {

// The id the incident store gives a manual incident fired at a time (incidents::make_incident_id,
// which the app hands in: the store is another consumer's).
using ManualIncidentId = std::function<std::string(int64_t fired_at_ns)>;

// `engine` and `gate` must outlive the server.
http::Route manual_trigger_route(TriggerEngine& engine, ManualTriggerGate& gate,
                                 ManualIncidentId incident_id);

}  // namespace flightrec::trigger
