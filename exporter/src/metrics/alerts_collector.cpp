#include "conversions.h"
#include "flightrec/exporter/metrics/collectors.h"

namespace flightrec::exporter::metrics {

void AlertsCollector::collect(Families& out) const {
  using trigger::AlertSource;
  for (const AlertSource source : {AlertSource::alertmanager, AlertSource::grafana}) {
    for (size_t i = 0; i < trigger::kNotificationResultCount; ++i) {
      const auto result = static_cast<trigger::NotificationResult>(i);
      out.counter("flightrec_alert_notifications_total",
                  "Alert webhook requests (POST /-/trigger/alertmanager, /-/trigger/grafana) by "
                  "sender and result: accepted, bad_request (400) or too_large (413).",
                  "", as_double(receiver_.notifications(source, result)),
                  {{"source", std::string(trigger::source_name(source))},
                   {"result", std::string(trigger::result_name(result))}});
    }
  }
  for (size_t i = 0; i < trigger::kSettledOutcomeCount; ++i) {
    const auto outcome = static_cast<trigger::AlertOutcome>(i);
    out.counter("flightrec_alerts_total",
                "Alerts in accepted notifications by outcome: captured (a new firing episode), "
                "duplicate, resolved (end recorded before the incident was written), "
                "end_recorded (end rewritten into the written incident), end_too_late (incident "
                "no longer stored), end_failed (the rewrite failed), filtered "
                "(incidents.alerts.match) or dropped (too many waiting).",
                "", as_double(receiver_.outcomes(outcome)),
                {{"outcome", std::string(trigger::outcome_name(outcome))}});
  }
  out.gauge("flightrec_alert_episodes", "Alert firing episodes remembered for deduplication.", "",
            as_double(receiver_.episodes()));
}

}  // namespace flightrec::exporter::metrics
