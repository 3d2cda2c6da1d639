#pragma once
// What an incident's rule watches, as the page uses it: the resource the top-process table is
// sorted by first, and the threshold drawn on the chart of the rule's signal.
#include <optional>
#include <string>

#include "flightrec/model/incident_description.h"
#include "flightrec/viewer/top_processes.h"

namespace flightrec::viewer {

struct Threshold {
  std::string chart;  // the chart's id (key_signals.h): "cpu", "memory", "pressure", ...
  double value = 0;   // in the chart's unit, which is the signal's base unit
  std::string label;  // the condition, e.g. cpu_busy_ratio{cpu="total"} > 0.8
};

struct RuleFocus {
  ProcessSort sort = ProcessSort::cpu;
  std::optional<Threshold> threshold;
};

// From the incident's condition (`signal op value`, docs/TRIGGERS.md): memory when its signal
// is about memory (memory_used_bytes, pressure_stall_ratio{resource="memory"}, a container's
// memory) or the incident is an OOM kill, else CPU; a threshold when the signal is one the page
// charts. An alert's or a manual incident's condition names no signal: CPU, no threshold.
RuleFocus rule_focus(const model::IncidentDescription& incident);

}  // namespace flightrec::viewer
