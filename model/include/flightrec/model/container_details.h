#pragma once
// The container an incident names, read back from its details for the listings (`flightrec
// incidents`, replay's trigger line): a container rule's (container.*) or an OOM victim's
// (oom.namespace, oom.pod, oom.container, oom.container_id).
#include <string>

#include "flightrec/model/incident_description.h"

namespace flightrec::model {

// "prod/web-1/nginx": the namespace, pod and container known, joined by '/'; without Kubernetes
// names the container's name, else its id, else (a container rule) its cgroup path. Empty when
// the incident names no container. As stored: escape it where shown.
[[nodiscard]] std::string container_name(const IncidentDescription& incident);

}  // namespace flightrec::model
