#pragma once
// POST /-/trigger[?reason=TEXT]: asks the engine for a manual incident (202), joins the one still
// pending (202), or refuses within incidents.manual_interval of the last (429 with Retry-After).
// The incident appears at /incidents once its post window ends.
#include "flightrec/http/route.h"
#include "flightrec/trigger/engine.h"
#include "flightrec/trigger/manual_gate.h"

namespace flightrec::trigger {

// `engine` and `gate` must outlive the server.
http::Route manual_trigger_route(TriggerEngine& engine, ManualTriggerGate& gate);

}  // namespace flightrec::trigger
