#pragma once
// An incident's file as a request finds it: looked up in the index, then checked and opened on
// disk. Every route that serves an incident file (raw, json, csv, the viewer's page) goes through
// this, so a file changed behind the daemon's back gets the same answer everywhere.
#include <string_view>

#include "flightrec/dump/stored_file.h"
#include "flightrec/incidents/incident_store.h"

namespace flightrec::incidents {

// 400 for an id outside the charset; 404 for an id not in the index, a failed incident (with its
// error) or a file that is no longer there; 503 for a file the start-up scan has not verified yet;
// 500 naming the path when something else is in its place (a directory, say) or it cannot be opened
// (e.g. permission denied).
dump::StoredFile open_stored_file(const IncidentStore& store, std::string_view id);

}  // namespace flightrec::incidents
