#pragma once
// How a container is named to a person: replay's Containers tab and the incident viewer's
// container sections.
#include <string>

#include "flightrec/container/frame/container_frame.h"

namespace flightrec::container {

// "namespace/pod/container" for a Kubernetes pod's container, else the runtime's name, else a
// service's or regex match's id whole and a runtime's 64-hex id cut to 12, as docker ps shows it.
// As the node's files gave it: whoever prints it escapes it.
std::string display_name(const ContainerRow& row);

}  // namespace flightrec::container
