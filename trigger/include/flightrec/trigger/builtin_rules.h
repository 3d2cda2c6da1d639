#pragma once
// The rules flightrec runs without being told: today one, `oom_kill`. Every OOM kill, system-wide
// or in a cgroup, is the event people most need explained afterwards, and the process is gone
// before anything reads /proc: the ring still holds the moments before, so the rule captures them.
#include <string_view>
#include <vector>

#include "flightrec/config/config.h"
#include "flightrec/model/incident_kind.h"

namespace flightrec::trigger {

inline constexpr std::string_view kOomKillRule = "oom_kill";

// The configured rules but container rules (container_triggers.h), then the built-in ones the
// configuration leaves on (incidents.capture_oom_kills, with the vmstat source enabled) and does
// not replace with a rule of the same name. oom_kill: oom_kills_per_second > 0 (the tick
// /proc/vmstat's oom_kill count moves), the whole buffer before, 5 s after, and a 5 s cooldown: a
// kill within the post window is in that recording, a later one fires its own.
[[nodiscard]] std::vector<config::TriggerRule> rules_with_builtins(const config::Config& config);

// The kind of the incidents `rule` fires: oom_kill for the built-in rule and for a configured one
// that replaces it (it takes the built-in's place, victim naming included), else rule.
[[nodiscard]] model::IncidentKind incident_kind_of(const config::TriggerRule& rule);

}  // namespace flightrec::trigger
