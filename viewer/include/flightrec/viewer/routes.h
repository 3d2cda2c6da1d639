#pragma once
// The viewer's HTTP entry points: GET /incidents/{id}/view (its own route, more specific than the
// incidents component's /incidents/{id...}) and GET /dump?format=html (a format it adds to /dump).
#include <cstdint>

#include "flightrec/dump/dump_route.h"
#include "flightrec/dump/stored_file.h"
#include "flightrec/http/route.h"

namespace flightrec::viewer {

// Incident files larger than this are answered with 413 rather than read into memory.
inline constexpr uint64_t kDefaultMaxViewFileBytes = 256ull << 20;

// GET /incidents/{id}/view: the incident file `open_incident` opens for the id (the incident
// store's, incidents::open_stored_file, as the app wires it) as a page.
http::Route incident_view_route(dump::StoredFileOpener open_incident,
                                uint64_t max_file_bytes = kDefaultMaxViewFileBytes);

// format=html of /dump: the window (from= and to= as /dump takes them) as a page, with the process
// table from DumpSource::process_blocks when set.
dump::DumpView dump_page();

}  // namespace flightrec::viewer
