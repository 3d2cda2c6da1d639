#pragma once
// The viewer's HTTP entry points: GET /incidents/{id}/view and GET /dump?format=html. Both are
// wrappers that take over their own requests and pass every other request on, because the server
// matches one route per path prefix (/incidents and /dump are already taken).
#include <cstdint>
#include <functional>
#include <vector>

#include "flightrec/http/server.h"
#include "flightrec/incidents/incident_store.h"
#include "flightrec/recording/dump_handler.h"
#include "flightrec/sampler/process/process_frame.h"
#include "flightrec/store/cursor.h"

namespace flightrec::viewer {

// Incident files larger than this are answered with 413 rather than read into memory.
inline constexpr uint64_t kDefaultMaxViewFileBytes = 256ull << 20;

// GET /incidents/{id}/view: the incident file as a page. Every other path goes to `incidents`
// (incidents::incidents_handler). `store` must outlive the server.
http::Handler incidents_handler_with_view(const incidents::IncidentStore& store,
                                          http::Handler incidents,
                                          uint64_t max_file_bytes = kDefaultMaxViewFileBytes);

// GET /dump?format=html[&from=&to=]: the ring's window as a page (from and to as /dump takes
// them; the process table from source.process_blocks when set). Every other format goes to
// `dump` (recording::dump_handler).
http::Handler dump_handler_with_view(recording::DumpSource source, http::Handler dump);

}  // namespace flightrec::viewer
