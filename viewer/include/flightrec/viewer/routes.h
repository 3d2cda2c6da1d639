#pragma once
// The viewer's HTTP entry points: GET /incidents/{id}/view (its own route, more specific than the
// incidents component's /incidents/{id...}) and GET /dump?format=html (a format it adds to /dump).
#include <cstdint>

#include "flightrec/dump/dump_route.h"
#include "flightrec/http/route.h"
#include "flightrec/incidents/incident_store.h"

namespace flightrec::viewer {

// Incident files larger than this are answered with 413 rather than read into memory.
inline constexpr uint64_t kDefaultMaxViewFileBytes = 256ull << 20;

// GET /incidents/{id}/view: the incident file as a page. `store` must outlive the server.
http::Route incident_view_route(const incidents::IncidentStore& store,
                                uint64_t max_file_bytes = kDefaultMaxViewFileBytes);

// format=html of /dump: the window (from= and to= as /dump takes them) as a page, with the process
// table from DumpSource::process_blocks when set.
dump::DumpView dump_page();

}  // namespace flightrec::viewer
