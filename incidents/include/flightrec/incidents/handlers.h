#pragma once
// GET /incidents (the index as JSON, newest first) and GET /incidents/{id}[?format=raw|json|csv]
// (one incident file), routed by routes.h. Ids are checked against a strict charset and looked up
// in the index only (open_stored_file); a query parameter a path does not take, or one given twice,
// is a 400.
#include "flightrec/http/server.h"
#include "flightrec/incidents/incident_store.h"

namespace flightrec::incidents {

// GET /incidents; `store` must outlive the server.
http::Handler list_handler(const IncidentStore& store);
// GET /incidents/{id}, the id from the route's path value "id".
http::Handler incident_handler(const IncidentStore& store);

// The index as a JSON array (the body of GET /incidents).
std::string incidents_json(const std::vector<IncidentEntry>& entries);

}  // namespace flightrec::incidents
