#include "incident_summary.h"

#include "flightrec/model/alert_details.h"
#include "flightrec/model/container_details.h"
#include "flightrec/model/oom_memory.h"

namespace flightrec::incidents::detail {

std::string incident_summary(const model::IncidentDescription& incident) {
  if (incident.kind == model::IncidentKind::alert) {
    return model::alert_headline(incident, model::alert_details(incident));
  }
  const std::string container = model::container_name(incident);
  const std::string in_container = container.empty() ? "" : " in " + container;
  if (const model::OomKillDetails kill = model::oom_kill_details(incident); kill.victim_pid > 0) {
    return incident.condition + ", killed " + std::to_string(kill.victim_pid) + " " +
           kill.victim_command + in_container;
  }
  if (incident.kind == model::IncidentKind::container) return incident.condition + in_container;
  return incident.reason.empty() ? incident.condition : incident.reason;
}

std::string fired_by(const model::IncidentDescription& incident) {
  if (incident.kind != model::IncidentKind::alert) return incident.rule;
  const model::AlertDetails alert = model::alert_details(incident);
  const std::string_view name = alert.label("alertname");
  return name.empty() ? incident.rule : std::string(name);
}

}  // namespace flightrec::incidents::detail
