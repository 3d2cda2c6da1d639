#include <span>
#include <string>

#include "flightrec/exposition/conversions.h"
#include "flightrec/trigger/collectors.h"

namespace flightrec::trigger {

using exposition::as_double;

void AlertsCollector::collect(exposition::Families& out) const {
  for (const auto& [source, source_label] : kAlertSourceNames) {
    for (const auto& [result, result_label] : kNotificationResultNames) {
      out.counter("flightrec_alert_notifications_total",
                  "Alert webhook requests (POST /-/trigger/alertmanager, /-/trigger/grafana) by "
                  "sender and result: accepted, bad_request (400) or too_large (413).",
                  "", as_double(receiver_.notifications(source, result)),
                  {{"source", std::string(source_label)}, {"result", std::string(result_label)}});
    }
  }
  for (const auto& [outcome, name] : std::span(kAlertOutcomeNames).first(kSettledOutcomeCount)) {
    out.counter("flightrec_alerts_total",
                "Alerts in accepted notifications by outcome: captured (a new firing episode), "
                "duplicate, resolved (end recorded before the incident was written), "
                "end_recorded (end rewritten into the written incident), end_too_late (incident "
                "no longer stored), end_failed (the rewrite failed), filtered "
                "(incidents.alerts.match), out_of_scope (names a container not on this node) "
                "or dropped (too many waiting).",
                "", as_double(receiver_.outcomes(outcome)), {{"outcome", std::string(name)}});
  }
  out.gauge("flightrec_alert_episodes", "Alert firing episodes remembered for deduplication.", "",
            as_double(receiver_.episodes()));
}

}  // namespace flightrec::trigger
