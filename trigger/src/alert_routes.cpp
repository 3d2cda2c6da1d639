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
nlohmann::ordered_json outcome_counts(const std::vector<AlertOutcome>& outcomes) {
  nlohmann::ordered_json counts;
  counts["alerts"] = outcomes.size();
  for (const auto& [outcome, name] : kAlertOutcomeNames) {
    counts[std::string(name)] = std::count(outcomes.begin(), outcomes.end(), outcome);
  }
  return counts;
}

// The counts, then each alert's own outcome in the payload's order, by its fingerprint:
// {"alerts":2,...,"outcomes":[{"fingerprint":"a1","outcome":"captured"},...]}.
std::string answer_json(const AlertNotification& notification,
                        const std::vector<AlertOutcome>& outcomes) {
  nlohmann::ordered_json answer = outcome_counts(outcomes);
  nlohmann::ordered_json& each = answer["outcomes"] = nlohmann::ordered_json::array();
  for (size_t i = 0; i < outcomes.size(); ++i) {
    each.push_back({{"fingerprint", notification.alerts[i].fingerprint},
                    {"outcome", outcome_name(outcomes[i])}});
  }
  return answer.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

void receive_alerts(AlertSource source, AlertReceiver& receiver, const http::Request& request,
                    http::Response& response) {
  if (const Status names = http::check_query_names(request.query(), {}); !names) {
    receiver.count_notification(source, NotificationResult::bad_request);
    response.send(400, kText, names.error() + "\n");
    return;
  }
  auto parsed = parse_alert_payload(source, request.body());
  if (!parsed) {
    receiver.count_notification(source, NotificationResult::bad_request);
    log::warn("alert notification refused",
              {{"source", std::string(source_name(source))}, {"err", parsed.error()}});
    response.send(400, kText, parsed.error() + "\n");
    return;
  }
  auto& notification = *parsed;
  // A resolved alert without its end (Go's zero time) had ended by the time we were told.
  const int64_t now_ns = clock_ns(CLOCK_REALTIME);
  for (Alert& alert : notification.alerts) {
    if (!alert.firing && !alert.ends_at_ns) alert.ends_at_ns = now_ns;
  }
  const std::vector<AlertOutcome> outcomes = receiver.receive(notification);
  receiver.count_notification(source, NotificationResult::accepted);
  log::info("alert notification", {{"source", std::string(source_name(source))},
                                   {"group_key", notification.group_key},
                                   {"outcomes", outcome_counts(outcomes).dump()}});
  // Alertmanager retries a notification not answered 2xx (a sender that does not retry sends the
  // alert again with its next one): an alert dropped now is taken then, the ones captured now
  // are duplicates then.
  const bool all_taken =
      std::find(outcomes.begin(), outcomes.end(), AlertOutcome::dropped) == outcomes.end();
  response.send(all_taken ? 200 : 503, "application/json", answer_json(notification, outcomes));
}

http::Route route_for(AlertSource source, AlertReceiver& receiver) {
  const std::string_view sender = source == AlertSource::grafana ? "Grafana" : "Alertmanager";
  return {.path = "/-/trigger/" + std::string(source_name(source)),
          .summary = std::string(sender) + "'s webhook: records an incident per alert episode",
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
