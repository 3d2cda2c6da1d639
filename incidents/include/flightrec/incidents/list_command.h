#pragma once
// `flightrec incidents [--dir DIR]`: the incidents in a directory as a table, newest first. Only
// reads: safe while a daemon writes there (nothing is quarantined or removed).
#include <filesystem>
#include <ostream>

#include "flightrec/incidents/incident_file.h"

namespace flightrec::incidents {

// The table on `out`, then a line for each corrupt file ("corrupt: <file>: <error>") and each file
// removed between the listing and its check ("gone: <file> ..."). Returns 0; 1 when the directory
// cannot be read (the error, naming it, on `err`); 2 when some files could not be read, each
// named on `err` with what failed and the errno text ("unreadable: <file>: cannot open:
// Permission denied"), the others listed as usual.
int list_incidents_command(const std::filesystem::path& dir, std::ostream& out, std::ostream& err);
// The same for a scan already made: list_incidents_command is this over scan_incident_directory.
int print_incident_scan(const DirectoryScan& scan, std::ostream& out, std::ostream& err);

}  // namespace flightrec::incidents
