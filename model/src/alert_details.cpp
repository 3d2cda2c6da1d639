#include "flightrec/model/alert_details.h"

namespace flightrec::model {
std::string_view AlertDetails::label(std::string_view name) const {
  return recording::value_of(labels, name);
}

std::string_view AlertDetails::annotation(std::string_view name) const {
  return recording::value_of(annotations, name);
}

AlertDetails alert_details(const IncidentDescription& incident) {
  namespace keys = alert_detail_keys;
  AlertDetails alert;
  for (const auto& [key, text] : incident.details) {
    const std::string_view name = key;
    if (!name.starts_with("alert.")) continue;
    alert.any = true;
    if (name == keys::kSource) alert.source = text;
    if (name == keys::kStatus) alert.status = text;
    if (name == keys::kGeneratorUrl) alert.generator_url = text;
    if (name.starts_with(keys::kLabelPrefix)) {
      alert.labels.emplace_back(name.substr(keys::kLabelPrefix.size()), text);
    }
    if (name.starts_with(keys::kAnnotationPrefix)) {
      alert.annotations.emplace_back(name.substr(keys::kAnnotationPrefix.size()), text);
    }
  }
  return alert;
}

std::string alert_headline(const IncidentDescription& incident, const AlertDetails& alert) {
  std::string text(alert.label("alertname"));
  if (text.empty()) text = "alert";
  const std::string_view severity = alert.label("severity");
  if (!severity.empty()) text += " (" + std::string(severity) + ")";
  std::string_view summary = alert.annotation("summary");
  if (summary.empty()) summary = incident.reason;
  if (!summary.empty()) text += ": " + std::string(summary);
  return text;
}

std::string label_set_text(const recording::Labels& labels) {
  std::string text = "{";
  for (const auto& [name, value] : labels) {
    if (text.size() > 1) text += ',';
    text += name + "=\"";
    for (const char c : value) {
      if (c == '"' || c == '\\') text += '\\';
      text += c == '\n' ? std::string("\\n") : std::string(1, c);
    }
    text += '"';
  }
  return text + "}";
}

}  // namespace flightrec::model
