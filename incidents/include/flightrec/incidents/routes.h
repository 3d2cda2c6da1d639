#pragma once
// The incidents component's routes: GET /incidents (the index) and GET /incidents/{id...} (one
// incident file). The id takes the rest of the path, so that an id with a slash still reaches the
// id check (a 400) rather than no route; the viewer's /incidents/{id}/view is more specific.
#include <vector>

#include "flightrec/http/route.h"
#include "flightrec/incidents/incident_store.h"

namespace flightrec::incidents {

// `store` must outlive the server.
std::vector<http::Route> incidents_routes(const IncidentStore& store);

}  // namespace flightrec::incidents
