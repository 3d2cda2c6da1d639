#pragma once
// What an incident is about, in the words both listings use (`flightrec incidents` and the HTML
// list of /incidents): the text as stored, which each listing makes safe for where it shows it.
#include <string>

#include "flightrec/model/incident_description.h"

namespace flightrec::incidents::detail {

// A rule's condition (a container rule's with the container), a manual request's reason, an
// alert as its receiver would name it (alertname, severity, summary), or an OOM kill's condition
// and victim (and its container).
std::string incident_summary(const model::IncidentDescription& incident);

// Who fired it: the rule's name, or an alert's alertname ("alert" when it has none).
std::string fired_by(const model::IncidentDescription& incident);

}  // namespace flightrec::incidents::detail
