#pragma once
// The two renderings of a Snapshot. docs/SNAPSHOT.md documents both formats.
#include <string>

#include "flightrec/snapshot/snapshot.h"

namespace flightrec::snapshot {

// Bumped whenever a field is removed or changes meaning; adding fields does not bump it.
inline constexpr int kJsonSchemaVersion = 1;

// One JSON object, indented by 2, ending in a newline.
std::string render_json(const Snapshot& snapshot);

enum class ProcessOrder { cpu_time, rss };

// A system header, then a ps/top-like process table sorted by `order` (largest first), with
// columns aligned. Control characters in names and command lines are shown as '?', so a process
// cannot send escape sequences to the reader's terminal.
std::string render_text(const Snapshot& snapshot, ProcessOrder order = ProcessOrder::cpu_time);

}  // namespace flightrec::snapshot
