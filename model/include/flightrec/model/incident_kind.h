#pragma once
// What started an incident: a configured rule, a manual request (POST /-/trigger), an alert
// notification (POST /-/trigger/alertmanager or /grafana), an OOM kill (the built-in rule
// `oom_kill`), or a rule over a container's signals (it names the container). Readers decide by it,
// not by the rule's name or the details' keys; the incident file stores its name as "incident.kind"
// (docs/RECORDING_FORMAT.md). A new kind is one enum value and one row of kIncidentKinds.
#include <cstdint>
#include <optional>
#include <string_view>

namespace flightrec::model {

struct IncidentDescription;

enum class IncidentKind : uint8_t { rule, manual, alert, oom_kill, container };

struct IncidentKindName {
  IncidentKind kind;
  std::string_view name;  // as stored, in /incidents' JSON and in every listing: "oom_kill"
};
// The one table of kinds and their names.
inline constexpr IncidentKindName kIncidentKinds[] = {{IncidentKind::rule, "rule"},
                                                      {IncidentKind::manual, "manual"},
                                                      {IncidentKind::alert, "alert"},
                                                      {IncidentKind::oom_kill, "oom_kill"},
                                                      {IncidentKind::container, "container"}};

[[nodiscard]] constexpr std::string_view kind_name(IncidentKind kind) {
  for (const IncidentKindName& row : kIncidentKinds) {
    if (row.kind == kind) return row.name;
  }
  return "rule";
}

[[nodiscard]] constexpr std::optional<IncidentKind> kind_named(std::string_view name) {
  for (const IncidentKindName& row : kIncidentKinds) {
    if (row.name == name) return row.kind;
  }
  return std::nullopt;
}

// The kind of an incident whose file does not say (written before "incident.kind" was stored, or
// by a newer flightrec with a kind this one does not know), from what such files did carry: an
// alert has "alert.*" details, and manual and OOM incidents had the rule names "manual" and
// "oom_kill". Anything else was fired by a rule.
[[nodiscard]] IncidentKind inferred_kind(const IncidentDescription& incident);

}  // namespace flightrec::model
