#pragma once
// What the viewer shows of an OOM incident: the kill's moment (a marker on every chart, labelled
// with the victim) and the biggest memory consumers at it, read back from the incident's "oom.*"
// details (trigger/oom_victims.h, model/oom_memory.h).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "flightrec/model/incident_description.h"
#include "flightrec/model/oom_memory.h"

namespace flightrec::viewer {

struct OomKillMark {
  int64_t killed_at_ns = 0;
  std::string victim;                           // "468 python3"; "" when the kernel log named none
  int64_t top_rss_at_ns = 0;                    // the process frame the list is from; 0: none
  std::vector<model::ResidentProcess> top_rss;  // largest first
};

// The mark of an incident whose details hold oom.killed_at_ns; nullopt otherwise (or when it does
// not parse). Top entries that do not parse are left out.
std::optional<OomKillMark> oom_kill_mark(const model::IncidentDescription& incident);

}  // namespace flightrec::viewer
