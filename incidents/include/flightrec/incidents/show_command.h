#pragma once
// `flightrec incidents ID [--dir DIR]`: one incident in full, for what the table's one line
// leaves out: its description field by field and every detail (an alert's labels, annotations
// and generatorURL, an OOM kill's victim), under the keys /incidents/ID?format=json uses. Only
// reads, like the table.
#include <filesystem>
#include <ostream>
#include <string_view>

namespace flightrec::incidents {

// Returns 0, or 1 when `id` is not an id, names no file in `dir`, or its file does not check out
// (the error, naming it, goes to `out`). `where_to_look`, when not empty, follows "no incident ID
// in DIR" on a line of its own: how to point the command at another directory.
int show_incident_command(const std::filesystem::path& dir, std::string_view id, std::ostream& out,
                          std::string_view where_to_look = {});

}  // namespace flightrec::incidents
