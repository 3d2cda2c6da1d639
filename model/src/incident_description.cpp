#include "flightrec/model/incident_description.h"

#include <string_view>

#include "flightrec/common/number_format.h"
#include "flightrec/common/whole_number.h"

namespace flightrec::model {
namespace {

constexpr std::string_view kPrefix = "incident.";
constexpr std::string_view kKind = "incident.kind";
constexpr std::string_view kRule = "incident.rule";
constexpr std::string_view kCondition = "incident.condition";
constexpr std::string_view kValue = "incident.value";
constexpr std::string_view kSeries = "incident.series";
constexpr std::string_view kReason = "incident.reason";
constexpr std::string_view kFiredAt = "incident.fired_at_ns";
constexpr std::string_view kWindowFrom = "incident.window_from_ns";
constexpr std::string_view kWindowTo = "incident.window_to_ns";
constexpr std::string_view kDetailPrefix = "incident.detail.";

template <typename Number>
void parse_into(const std::string& text, Number& out) {
  if (const auto parsed = whole_number<Number>(text)) out = *parsed;
}

// What decoding found besides the description itself.
struct Decoded {
  IncidentDescription incident;
  std::optional<IncidentKind> kind;  // nullopt: not stored, or a name this version does not know
};

void decode_pair(const std::string& key, const std::string& text, Decoded& decoded) {
  IncidentDescription& out = decoded.incident;
  if (key == kKind) decoded.kind = kind_named(text);
  if (key == kRule) out.rule = text;
  if (key == kCondition) out.condition = text;
  if (key == kValue) parse_into(text, out.value);
  if (key == kSeries) out.series = text;
  if (key == kReason) out.reason = text;
  if (key == kFiredAt) parse_into(text, out.fired_at_ns);
  if (key == kWindowFrom) parse_into(text, out.window_from_ns);
  if (key == kWindowTo) parse_into(text, out.window_to_ns);
  if (key.starts_with(kDetailPrefix))
    out.details.emplace_back(key.substr(kDetailPrefix.size()), text);
}

}  // namespace

void encode_incident(const IncidentDescription& incident, recording::Labels& extra) {
  extra.emplace_back(kKind, kind_name(incident.kind));
  extra.emplace_back(kRule, incident.rule);
  extra.emplace_back(kCondition, incident.condition);
  extra.emplace_back(kValue, number_text(incident.value));
  extra.emplace_back(kSeries, incident.series);
  extra.emplace_back(kReason, incident.reason);
  extra.emplace_back(kFiredAt, std::to_string(incident.fired_at_ns));
  extra.emplace_back(kWindowFrom, std::to_string(incident.window_from_ns));
  extra.emplace_back(kWindowTo, std::to_string(incident.window_to_ns));
  for (const auto& [key, text] : incident.details) {
    extra.emplace_back(std::string(kDetailPrefix) + key, text);
  }
}

void replace_incident(const IncidentDescription& incident, recording::Labels& extra) {
  std::erase_if(extra, [](const auto& pair) { return pair.first.starts_with(kPrefix); });
  encode_incident(incident, extra);
}

std::optional<IncidentDescription> decode_incident(const recording::Metadata& metadata) {
  std::optional<Decoded> decoded;
  for (const auto& [key, text] : metadata.extra) {
    if (!key.starts_with(kPrefix)) continue;
    if (!decoded) decoded.emplace();
    decode_pair(key, text, *decoded);
  }
  if (!decoded) return std::nullopt;
  IncidentDescription& incident = decoded->incident;
  incident.kind = decoded->kind.value_or(inferred_kind(incident));
  return std::move(incident);
}

}  // namespace flightrec::model
