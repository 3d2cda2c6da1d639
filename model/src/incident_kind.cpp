#include "flightrec/model/incident_kind.h"

#include "flightrec/model/alert_details.h"
#include "flightrec/model/incident_description.h"

namespace flightrec::model {

IncidentKind inferred_kind(const IncidentDescription& incident) {
  if (alert_details(incident).any) return IncidentKind::alert;
  // Only these two rule names ever stood for a kind: "alert" was a name a user rule could take.
  if (incident.rule == kind_name(IncidentKind::manual)) return IncidentKind::manual;
  if (incident.rule == kind_name(IncidentKind::oom_kill)) return IncidentKind::oom_kill;
  return IncidentKind::rule;
}

}  // namespace flightrec::model
