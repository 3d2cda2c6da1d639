#pragma once
// An alert incident's "alert.*" details (docs/INCIDENTS.md, "Alert incidents") read back in one
// place: the receiver writes them (trigger/alert_receiver.h), and `flightrec incidents` and
// replay name the alert from them the same way, as an Alertmanager user knows it: alertname,
// severity, summary, the label set in Prometheus' notation.
#include <string>
#include <string_view>

#include "flightrec/model/incident_description.h"
#include "flightrec/recording/metadata.h"

namespace flightrec::model {

namespace alert_detail_keys {
inline constexpr std::string_view kSource = "alert.source";
inline constexpr std::string_view kFingerprint = "alert.fingerprint";
inline constexpr std::string_view kStatus = "alert.status";
inline constexpr std::string_view kEndsAt = "alert.ends_at";
inline constexpr std::string_view kHeldFrom = "alert.window_held_from";
inline constexpr std::string_view kHeldTo = "alert.window_held_to";
inline constexpr std::string_view kGeneratorUrl = "alert.generator_url";
// Followed by the label's or annotation's name: "alert.label.severity".
inline constexpr std::string_view kLabelPrefix = "alert.label.";
inline constexpr std::string_view kAnnotationPrefix = "alert.annotation.";
}  // namespace alert_detail_keys

struct AlertDetails {
  bool any = false;               // the incident has an "alert.*" detail at all
  std::string source;             // "alertmanager" or "grafana"
  std::string status;             // "firing" or "resolved"
  std::string generator_url;      // the rule's page in Prometheus or Grafana
  recording::Labels labels;       // name, value: in the order stored
  recording::Labels annotations;  // name, value: in the order stored

  // The label's or annotation's value, "" when there is none.
  [[nodiscard]] std::string_view label(std::string_view name) const;
  [[nodiscard]] std::string_view annotation(std::string_view name) const;
};

AlertDetails alert_details(const IncidentDescription& incident);

// "HighLoad (critical): CPU above 90% on web-1": the alertname (else "alert"), the severity label
// when there is one, and the summary annotation, else the incident's reason (Grafana's title).
// As sent: the caller makes it safe for where it is shown.
std::string alert_headline(const IncidentDescription& incident, const AlertDetails& alert);

// `{alertname="HighLoad",instance="web-1"}`, as Prometheus and Alertmanager write a label set
// (`"`, `\` and newlines escaped in values); `{}` for none.
std::string label_set_text(const recording::Labels& labels);

}  // namespace flightrec::model
