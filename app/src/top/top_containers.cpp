#include "top_containers.h"

#include "flightrec/container/frame/display_name.h"

namespace flightrec::app::detail {

TopContainerNames::TopContainerNames(std::optional<container::names::NameSettings> settings) {
  if (settings) resolver_ = std::make_unique<container::names::NameResolver>(std::move(*settings));
}

std::string TopContainerNames::name_of(const process::ProcessRow& row) {
  if (row.container_id.empty()) return {};
  container::ContainerRow named;
  named.id = row.container_id;
  if (resolver_) {
    if (const auto names = resolver_->resolve(row.container_id)) {
      named.pod_namespace = names->pod_namespace;
      named.pod = names->pod;
      named.container = names->container;
      named.name = names->name;
    }
  }
  return container::display_name(named);
}

}  // namespace flightrec::app::detail
