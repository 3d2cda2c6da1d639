#pragma once
// POST /-/trigger/alertmanager and POST /-/trigger/grafana: webhook receivers for Alertmanager
// (webhook_configs) and Grafana (a webhook contact point). Each parses its payload (400 naming the
// bad field, 413 beyond kMaxAlertBodyBytes), hands the alerts to the AlertReceiver and answers
// with what became of them, as JSON: the counts and each alert's outcome. 200, or 503 when some
// alert was dropped (no place left to write it), for the sender to send the notification again;
// the incidents are captured later, on the recorder and writer threads. Same right as
// POST /-/trigger: capture (role actions).
#include <vector>

#include "flightrec/http/route.h"
#include "flightrec/trigger/alert_receiver.h"

namespace flightrec::trigger {

inline constexpr size_t kMaxAlertBodyBytes = 1 << 20;

// `receiver` must outlive the server.
std::vector<http::Route> alert_trigger_routes(AlertReceiver& receiver);

}  // namespace flightrec::trigger
