#include "flightrec/incidents/incidents_collector.h"

#include <optional>
#include <string>

#include "flightrec/exposition/conversions.h"

namespace flightrec::incidents {

using exposition::as_double;
using exposition::seconds;

namespace {

constexpr const char* kIncidentsHelp = "Incidents by rule and outcome since start.";

// OpenMetrics only: the newest written incident of the rule, so that Grafana can open the recording
// behind a step of the counter (/incidents/{incident_id}/view).
std::optional<exposition::Exemplar> newest_incident(const RuleCounts& counts) {
  if (counts.last_written_id.empty()) return std::nullopt;
  return exposition::Exemplar{.labels = {{"incident_id", counts.last_written_id}},
                              .value = 1,
                              .timestamp_seconds = seconds(counts.last_written_fired_ns)};
}

}  // namespace

void IncidentsCollector::collect(exposition::Families& out) const {
  const auto incidents = store_.stats();
  for (const auto& [rule, counts] : incidents.by_rule) {
    out.counter("flightrec_incidents_total", kIncidentsHelp, "", as_double(counts.written),
                {{"rule", rule}, {"status", "written"}}, newest_incident(counts));
    out.counter("flightrec_incidents_total", kIncidentsHelp, "", as_double(counts.failed),
                {{"rule", rule}, {"status", "failed"}});
  }
  for (const auto& [cause, name] : kFailureCauseNames) {
    out.counter("flightrec_incident_write_failures_total",
                "Incident files that could not be written, by cause.", "",
                as_double(incidents.failed[static_cast<size_t>(cause)]),
                {{"cause", std::string(name)}});
  }
  out.counter("flightrec_incidents_quarantined_total",
              "Torn or corrupt incident files renamed to *.corrupt at start-up.", "",
              as_double(incidents.quarantined));
  out.gauge("flightrec_incidents_scan_pending",
            "Incident files found at start-up that the background scan has not verified yet.", "",
            as_double(incidents.unverified));
  out.counter("flightrec_incidents_retention_deleted_total",
              "Incident files deleted to keep within incidents.max_count and incidents.max_bytes.",
              "", as_double(incidents.retention_deleted));
  out.gauge("flightrec_incident_last_time_seconds",
            "When the newest incident fired (Unix time); 0 before the first.", "seconds",
            seconds(incidents.last_fired_ns));
  // The id as a label: a dashboard annotation can then link to the recording on this node.
  for (const auto& [rule, counts] : incidents.by_rule) {
    if (counts.last_written_id.empty()) continue;
    out.gauge("flightrec_incident_newest_time_seconds",
              "When each rule's newest incident written since start fired (Unix time); "
              "incident_id names it.",
              "seconds", seconds(counts.last_written_fired_ns),
              {{"rule", rule}, {"incident_id", counts.last_written_id}});
  }
}

}  // namespace flightrec::incidents
