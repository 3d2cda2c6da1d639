#include "flightrec/recorder/containers/container_labels.h"

namespace flightrec::recorder::containers {

ContainerLabels container_labels(const ContainerInfo& info) {
  const auto& ref = info.ref;
  const auto& names = info.names;
  std::string name = names.name;
  if (name.empty() && (ref.identity.runtime == container::Runtime::systemd ||
                       ref.identity.runtime == container::Runtime::custom)) {
    name = ref.identity.id;
  }
  const std::string values[] = {ref.path,  std::move(name), names.pod_namespace,
                                names.pod, names.container, names.image};
  static_assert(std::size(values) == std::size(config::kContainerLabels));
  ContainerLabels labels;
  for (size_t i = 0; i < labels.size(); ++i) {
    labels[i] = {config::kContainerLabels[i], values[i]};
  }
  return labels;
}

}  // namespace flightrec::recorder::containers
