#pragma once
// The names the kubelet gives the things it makes on the node, read back: log files, pod log
// directories, and (dockershim, cri-dockerd, CRI-O) the runtime's container names. Kubernetes
// names are DNS labels and subdomains, so they hold no '_': the separators are unambiguous, and a
// name with one too many is not the kubelet's. Pure functions over text; the errors say which
// part was wrong.
#include <string>
#include <string_view>

#include "flightrec/common/result.h"
#include "flightrec/container/names/container_names.h"

namespace flightrec::container::names {

// A runtime's full container id: 64 lowercase hex digits.
[[nodiscard]] bool is_container_id(std::string_view text) noexcept;

// A pod uid as the kubelet writes it, from the way a cgroup path spells it: the systemd cgroup
// driver writes "pod1a2b_..." for uid "1a2b-...". Lowercase, '_' read as '-'; nothing else is
// checked here.
[[nodiscard]] std::string normalize_pod_uid(std::string_view uid);

// A file of /var/log/containers: "<pod>_<namespace>_<container>-<id>.log" gives the id, pod,
// namespace and container.
Result<ContainerNames> parse_container_log_name(std::string_view file_name);

// A directory of /var/log/pods: "<namespace>_<pod>_<uid>" gives the namespace, pod and uid (a
// UUID, or for a static pod the 32 hex digits of its manifest's hash).
Result<ContainerNames> parse_pod_log_dir(std::string_view dir_name);

// Where a /var/log/containers link points: ".../<namespace>_<pod>_<uid>/<container>/<n>.log"
// gives the namespace, pod, uid and container (the link's text only: nothing is opened).
Result<ContainerNames> parse_pod_log_target(std::string_view target);

// A container name the kubelet chose for the runtime (Docker's, with or without its leading '/',
// or CRI-O's): "k8s_<container>_<pod>_<namespace>_<uid>_<attempt>".
Result<ContainerNames> parse_kubelet_container_name(std::string_view name);

}  // namespace flightrec::container::names
