#pragma once
// `flightrec incidents [--dir DIR]`: the incidents in a directory as a table, newest first. Only
// reads: safe while a daemon writes there (nothing is quarantined or removed).
#include <filesystem>
#include <ostream>

namespace flightrec::incidents {

// Returns 0, or 1 when the directory cannot be read (the error, naming it, goes to `out`).
int list_incidents_command(const std::filesystem::path& dir, std::ostream& out);

}  // namespace flightrec::incidents
