#include "flightrec/model/container_details.h"

#include <string_view>

namespace flightrec::model {
namespace {

std::string detail(const IncidentDescription& incident, std::string_view key) {
  for (const auto& [name, value] : incident.details) {
    if (name == key) return value;
  }
  return {};
}

}  // namespace

std::string container_name(const IncidentDescription& incident) {
  namespace keys = incident_details;
  const bool oom = incident.kind == IncidentKind::oom_kill;
  const std::string parts[] = {
      detail(incident, oom ? keys::kOomNamespace : keys::kContainerNamespace),
      detail(incident, oom ? keys::kOomPod : keys::kContainerPod),
      detail(incident, oom ? keys::kOomContainer : keys::kContainerName)};
  std::string name;
  for (const std::string& part : parts) {
    if (part.empty()) continue;
    if (!name.empty()) name += '/';
    name += part;
  }
  if (!name.empty()) return name;
  if (std::string id = detail(incident, oom ? keys::kOomContainerId : keys::kContainerId);
      !id.empty()) {
    return id;
  }
  return oom ? std::string() : detail(incident, keys::kContainerCgroup);
}

}  // namespace flightrec::model
