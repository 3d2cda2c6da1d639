#pragma once
// A container's labels, as cAdvisor's: `id` is the cgroup path; `name` the runtime's name (a
// systemd unit's or a path match's own name when no runtime names it); the Kubernetes names
// empty when unknown. One definition for /metrics and for the trigger rules that match them
// (config/container_signals.h names them, in this order). Values are as read: whoever writes
// them out escapes them.
#include <array>
#include <string>
#include <string_view>

#include "flightrec/config/container_signals.h"
#include "flightrec/recorder/containers/container_snapshot.h"

namespace flightrec::recorder::containers {

struct ContainerLabel {
  std::string_view name;
  std::string value;
};
using ContainerLabels = std::array<ContainerLabel, std::size(config::kContainerLabels)>;

[[nodiscard]] ContainerLabels container_labels(const ContainerInfo& info);

}  // namespace flightrec::recorder::containers
