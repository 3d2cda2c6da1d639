#include <string>

#include "flightrec/exposition/conversions.h"
#include "flightrec/trigger/collectors.h"

namespace flightrec::trigger {

using exposition::as_double;

void CaptureCollector::collect(exposition::Families& out) const {
  out.counter("flightrec_incidents_dropped_total",
              "Incidents dropped because the incident writer was behind.", "",
              as_double(writer_.dropped()));
  for (const auto& [admission, name] : kManualAdmissionNames) {
    out.counter("flightrec_manual_trigger_requests_total",
                "POST /-/trigger requests by outcome: accepted (a new incident), coalesced (joined "
                "the one pending) or refused (within incidents.manual_interval).",
                "", as_double(manual_gate_.count(admission)), {{"result", std::string(name)}});
  }
}

}  // namespace flightrec::trigger
