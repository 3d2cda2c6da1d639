#include "flightrec/trigger/container_directory.h"

#include <algorithm>

namespace flightrec::trigger {
namespace {

using recorder::containers::ContainerInfo;

// "containerd://<id>" (kube-state-metrics' container_id) or a bare id: the id.
std::string_view bare_id(std::string_view value) {
  const size_t scheme = value.find("://");
  return scheme == std::string_view::npos ? value : value.substr(scheme + 3);
}

// Whether the container is the one every label the alert has (of kScopeLabels) names.
bool named_by(const ContainerInfo& info, const config::AlertLabels& labels) {
  const auto& names = info.names;
  for (const auto& [label, value] : labels) {
    if (value.empty()) continue;
    if (label == "namespace" && names.pod_namespace != value) return false;
    if (label == "pod" && names.pod != value) return false;
    // Kubernetes' container name, or outside Kubernetes the runtime's own (Docker's, Podman's).
    if (label == "container" && (names.container.empty() ? names.name : names.container) != value) {
      return false;
    }
    if (label == "container_id") {
      const std::string_view id = bare_id(value);
      if (id != names.id && id != info.ref.identity.id) return false;
    }
    if (label == "id" && info.ref.path != value) return false;
  }
  return true;
}

bool names_a_container(const config::AlertLabels& labels) {
  return std::any_of(labels.begin(), labels.end(), [](const auto& label) {
    return !label.second.empty() && std::find(std::begin(kScopeLabels), std::end(kScopeLabels),
                                              label.first) != std::end(kScopeLabels);
  });
}

}  // namespace

void ContainerDirectory::observe(const recorder::containers::ContainerRound& round) {
  if (!round.slow) return;  // the fast tier's containers are every slow round's too
  const std::lock_guard lock(mutex_);
  observed_ = true;
  newest_ns_ = round.mono_ns;
  for (const auto& read : round.reads) {
    Seen& seen = seen_[read.info->ref.path];
    seen.info = read.info;  // shared with the tier: a pointer copy
    seen.last_seen_ns = round.mono_ns;
  }
  std::erase_if(seen_, [&](const auto& entry) { return !recent(entry.second); });
  // Beyond the bound (containers churning faster than `keep` forgets them) the oldest go first.
  while (seen_.size() > max_kept_) {
    seen_.erase(std::min_element(seen_.begin(), seen_.end(), [](const auto& a, const auto& b) {
      return a.second.last_seen_ns < b.second.last_seen_ns;
    }));
  }
}

std::shared_ptr<const ContainerInfo> ContainerDirectory::by_cgroup(
    std::string_view cgroup_path) const {
  const std::lock_guard lock(mutex_);
  std::string_view path = cgroup_path;
  while (!path.empty()) {
    if (const auto found = seen_.find(path); found != seen_.end() && recent(found->second)) {
      return found->second.info;
    }
    const size_t slash = path.rfind('/');
    if (slash == std::string_view::npos || slash == 0) break;  // the root is no container
    path = path.substr(0, slash);
  }
  return nullptr;
}

ContainerScope ContainerDirectory::scope_of(const config::AlertLabels& labels) const {
  if (!names_a_container(labels)) return ContainerScope::unnamed;
  const std::lock_guard lock(mutex_);
  if (!observed_) return ContainerScope::unnamed;
  for (const auto& [path, seen] : seen_) {
    if (recent(seen) && named_by(*seen.info, labels)) return ContainerScope::here;
  }
  return ContainerScope::elsewhere;
}

}  // namespace flightrec::trigger
