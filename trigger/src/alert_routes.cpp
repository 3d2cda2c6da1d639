#include "flightrec/trigger/alert_routes.h"

#include <algorithm>
#include <ctime>
#include <nlohmann/json.hpp>

#include "flightrec/common/clock.h"
#include "flightrec/common/log.h"
#include "flightrec/http/query_check.h"
#include "flightrec/http/request.h"

namespace flightrec::trigger {
namespace {

constexpr std::string_view kText = "text/plain; charset=utf-8";

// {"alerts": 3, "captured": 1, "duplicate": 2, ...}: every outcome, zero or not, so a client can
// rely on the keys.
std::string outcome_counts_json(const std::vector<AlertOutcome>& outcomes) {
  nlohmann::ordered_json counts;
  counts["alerts"] = outcomes.size();
  for (size_t i = 0; i < kAlertOutcomeCount; ++i) {
    const auto outcome = static_cast<AlertOutcome>(i);
    counts[std::string(outcome_name(outcome))] =
        std::count(outcomes.begin(), outcomes.end(), outcome);
  }
  return counts.dump() + "\n";
}

void receive_alerts(AlertSource source, AlertReceiver& receiver, const http::Request& request,
                    http::Response& response) {
  if (const auto error = http::check_query_names(request.query(), {}); !error.empty()) {
    receiver.count_notification(source, NotificationResult::bad_request);
    response.send(400, kText, error + "\n");
    return;
  }
  auto parsed = parse_alert_payload(source, request.body());
  if (const auto* error = std::get_if<std::string>(&parsed)) {
    receiver.count_notification(source, NotificationResult::bad_request);
    log::warn("alert notification refused",
              {{"source", std::string(source_name(source))}, {"err", *error}});
    response.send(400, kText, *error + "\n");
    return;
  }
  auto& notification = std::get<AlertNotification>(parsed);
  // A resolved alert without its end (Go's zero time) had ended by the time we were told.
  const int64_t now_ns = clock_ns(CLOCK_REALTIME);
  for (Alert& alert : notification.alerts) {
    if (!alert.firing && !alert.ends_at_ns) alert.ends_at_ns = now_ns;
  }
  const std::vector<AlertOutcome> outcomes = receiver.receive(notification);
  receiver.count_notification(source, NotificationResult::accepted);
  const std::string counts = outcome_counts_json(outcomes);
  log::info("alert notification", {{"source", std::string(source_name(source))},
                                   {"group_key", notification.group_key},
                                   {"outcomes", counts.substr(0, counts.size() - 1)}});
  response.send(200, "application/json", counts);
}

http::Route route_for(AlertSource source, AlertReceiver& receiver) {
  return {.path = "/-/trigger/" + std::string(source_name(source)),
          .handler =
              [source, &receiver](const http::Request& request, http::Response& response) {
                receive_alerts(source, receiver, request, response);
              },
          .methods = {"POST"},
          .right = http::Right::capture,
          .max_body_bytes = kMaxAlertBodyBytes,
          .on_body_too_large =
              [source, &receiver] {
                receiver.count_notification(source, NotificationResult::too_large);
              }};
}

}  // namespace

std::vector<http::Route> alert_trigger_routes(AlertReceiver& receiver) {
  return {route_for(AlertSource::alertmanager, receiver),
          route_for(AlertSource::grafana, receiver)};
}

}  // namespace flightrec::trigger
