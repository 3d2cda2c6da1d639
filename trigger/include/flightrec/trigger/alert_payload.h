#pragma once
// The webhook payloads that become alert incidents (docs/TRIGGERS.md, "Alertmanager and Grafana"):
// Alertmanager's (version "4") and Grafana's webhook contact point (Grafana-managed alerting,
// version "1": Alertmanager's shape plus orgId, state, title, message and per-alert URLs and
// values). Read strictly with nlohmann-json: a field of the wrong type or a time that is not RFC
// 3339 is an error naming the field, e.g. `alerts[2].startsAt: not an RFC 3339 time`. Fields this
// reader does not know are ignored, so newer senders still work.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "flightrec/common/enum_names.h"
#include "flightrec/common/result.h"
#include "flightrec/config/alert_matchers.h"

namespace flightrec::trigger {

enum class AlertSource : uint8_t { alertmanager, grafana };
// Each sender's name: its route (/-/trigger/<name>), the `source` label and alert.source.
inline constexpr EnumName<AlertSource> kAlertSourceNames[] = {
    {AlertSource::alertmanager, "alertmanager"}, {AlertSource::grafana, "grafana"}};
static_assert(names_are_distinct(kAlertSourceNames) && rows_follow_values(kAlertSourceNames));

[[nodiscard]] constexpr std::string_view source_name(AlertSource source) {
  return name_of(kAlertSourceNames, source);
}

struct Alert {
  bool firing = true;          // status "firing", else "resolved"
  config::AlertLabels labels;  // sorted by name
  config::AlertLabels annotations;
  int64_t starts_at_ns = 0;  // Unix ns
  // Unix ns; nullopt for Go's zero time (0001-01-01T00:00:00Z), which senders use for "no end".
  std::optional<int64_t> ends_at_ns;
  std::string fingerprint;  // not empty
  std::string generator_url;
  // Grafana only (empty otherwise).
  std::string dashboard_url;
  std::string panel_url;
  std::string silence_url;
  std::string value_string;
  bool operator==(const Alert&) const = default;
};

struct AlertNotification {
  AlertSource source = AlertSource::alertmanager;
  bool firing = true;  // the group's status
  std::string receiver;
  std::string group_key;
  std::string title;  // Grafana only
  std::vector<Alert> alerts;
};

// Nesting deeper than this is refused before it is built (no payload field needs more than 3).
inline constexpr int kMaxPayloadDepth = 16;

// The notification `body` holds, or the error naming the first bad field.
Result<AlertNotification> parse_alert_payload(AlertSource source, std::string_view body);

}  // namespace flightrec::trigger
