#pragma once
// GET /incidents (the index as JSON, newest first, with the start-up scan's progress in a header)
// and GET /incidents/{id}[?format=raw|json|csv] (one incident file), routed by routes.h. Ids are
// checked against a strict charset and looked up in the index only (open_stored_file); a query
// parameter a path does not take, or one given twice, is a 400.
#include "flightrec/http/server.h"
#include "flightrec/incidents/incident_store.h"

namespace flightrec::incidents {

// GET /incidents; `store` must outlive the server.
http::Handler list_handler(const IncidentStore& store);
// GET /incidents/{id}, the id from the route's path value "id".
http::Handler incident_handler(const IncidentStore& store);

// The index as a JSON array (the body of GET /incidents).
std::string incidents_json(const std::vector<IncidentEntry>& entries);

// GET /incidents also says how far the start-up scan is, in this header:
// "running; verified=12; total=100", then "done; verified=100; total=100".
inline constexpr std::string_view kScanHeader = "Flightrec-Incident-Scan";
std::string scan_header_value(const ScanProgress& scan);

}  // namespace flightrec::incidents
