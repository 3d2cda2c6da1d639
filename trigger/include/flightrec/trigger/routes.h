#pragma once
// POST /-/trigger[?reason=TEXT]: asks the engine for a manual incident (202), or 429 when too
// many wait already. The incident appears at /incidents once its post window ends.
#include "flightrec/http/route.h"
#include "flightrec/trigger/engine.h"

namespace flightrec::trigger {

// `engine` must outlive the server.
http::Route manual_trigger_route(TriggerEngine& engine);

}  // namespace flightrec::trigger
