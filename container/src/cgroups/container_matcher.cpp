#include "flightrec/container/cgroups/container_matcher.h"

#include <algorithm>
#include <array>
#include <utility>
#include <vector>

#include "flightrec/common/printable.h"

namespace flightrec::container {
namespace {

constexpr size_t kContainerIdLength = 64;
// Pod uids are UUIDs (36 characters); a static pod's is a hash of its manifest (32).
constexpr size_t kMaxPodUidLength = 64;

bool is_container_id(std::string_view text) {
  return text.size() == kContainerIdLength && std::all_of(text.begin(), text.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

struct ScopePrefix {
  std::string_view prefix;
  Runtime runtime;
};

// The systemd driver's "<prefix><id>.scope". A "<prefix>conmon-<id>.scope" holds the container
// monitor, not the container, and fails the id check.
constexpr std::array<ScopePrefix, 4> kScopePrefixes{{
    {"docker-", Runtime::docker},
    {"cri-containerd-", Runtime::containerd},
    {"crio-", Runtime::crio},
    {"libpod-", Runtime::podman},
}};

std::optional<ContainerIdentity> scope_container(std::string_view component) {
  constexpr std::string_view kSuffix = ".scope";
  if (!component.ends_with(kSuffix)) return std::nullopt;
  component.remove_suffix(kSuffix.size());
  for (const ScopePrefix& scope : kScopePrefixes) {
    if (component.starts_with(scope.prefix) &&
        is_container_id(component.substr(scope.prefix.size()))) {
      return ContainerIdentity{std::string(component.substr(scope.prefix.size())), scope.runtime};
    }
  }
  return std::nullopt;
}

// "<prefix><id>" without ".scope" (cgroupfs managers), for the one prefix wanted.
std::optional<std::string_view> prefixed_id(std::string_view component, std::string_view prefix) {
  if (!component.starts_with(prefix)) return std::nullopt;
  const std::string_view id = component.substr(prefix.size());
  if (!is_container_id(id)) return std::nullopt;
  return id;
}

struct Pod {
  std::string uid;
  QosClass qos = QosClass::none;
};

std::optional<std::string> pod_uid(std::string_view text, bool systemd) {
  if (text.empty() || text.size() > kMaxPodUidLength) return std::nullopt;
  std::string uid(text);
  for (char& c : uid) {
    if (systemd && c == '_') c = '-';  // systemd unit names cannot hold '-' inside a part
    const bool allowed = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || c == '-';
    if (!allowed) return std::nullopt;
  }
  return uid;
}

// A pod's cgroup from its component and those above it. systemd driver:
// kubepods[-burstable|-besteffort]-pod<uid>.slice (kind nodes prefix "kubelet-"); cgroupfs:
// pod<uid> under kubepods, kubepods/burstable or kubepods/besteffort.
std::optional<Pod> pod_of(const std::vector<std::string_view>& components, size_t index) {
  const std::string_view name = components[index];
  constexpr std::string_view kSlice = ".slice";
  if (name.ends_with(kSlice)) {
    const size_t marker = name.rfind("-pod");
    if (marker == std::string_view::npos) return std::nullopt;
    const std::string_view parent = name.substr(0, marker);
    const std::string_view uid_text =
        name.substr(marker + 4, name.size() - kSlice.size() - marker - 4);
    QosClass qos = QosClass::none;
    if (parent.ends_with("kubepods-burstable")) {
      qos = QosClass::burstable;
    } else if (parent.ends_with("kubepods-besteffort")) {
      qos = QosClass::besteffort;
    } else if (parent.ends_with("kubepods")) {
      qos = QosClass::guaranteed;
    } else {
      return std::nullopt;
    }
    std::optional<std::string> uid = pod_uid(uid_text, true);
    if (!uid) return std::nullopt;
    return Pod{std::move(*uid), qos};
  }
  if (!name.starts_with("pod") || index == 0) return std::nullopt;
  std::optional<std::string> uid = pod_uid(name.substr(3), false);
  if (!uid) return std::nullopt;
  const std::string_view above = components[index - 1];
  if (above == "kubepods") return Pod{std::move(*uid), QosClass::guaranteed};
  if (index < 2 || components[index - 2] != "kubepods") return std::nullopt;
  if (above == "burstable") return Pod{std::move(*uid), QosClass::burstable};
  if (above == "besteffort") return Pod{std::move(*uid), QosClass::besteffort};
  return std::nullopt;
}

// A container directly in a pod: a runtime's scope, CRI-O's cgroupfs "crio-<id>", or a bare id.
std::optional<ContainerIdentity> pod_container(std::string_view component) {
  if (auto scope = scope_container(component)) return scope;
  if (auto id = prefixed_id(component, "crio-")) {
    return ContainerIdentity{std::string(*id), Runtime::crio};
  }
  if (is_container_id(component)) return ContainerIdentity{std::string(component), Runtime::cri};
  return std::nullopt;
}

// A container outside Kubernetes: a runtime's scope anywhere (system.slice, machine.slice, a
// user's slice for rootless Podman), Docker's cgroupfs /docker/<id>, Podman's cgroupfs
// /libpod_parent/libpod-<id>.
std::optional<ContainerIdentity> runtime_container(std::string_view component,
                                                   std::string_view parent) {
  if (auto scope = scope_container(component)) return scope;
  if (parent == "docker" && is_container_id(component)) {
    return ContainerIdentity{std::string(component), Runtime::docker};
  }
  if (parent == "libpod_parent") {
    if (auto id = prefixed_id(component, "libpod-")) {
      return ContainerIdentity{std::string(*id), Runtime::podman};
    }
  }
  return std::nullopt;
}

std::vector<std::string_view> components_of(std::string_view path) {
  std::vector<std::string_view> components;
  while (!path.empty()) {
    const size_t slash = path.find('/');
    const std::string_view component = path.substr(0, slash);
    if (!component.empty()) components.push_back(component);
    path = slash == std::string_view::npos ? std::string_view() : path.substr(slash + 1);
  }
  return components;
}

}  // namespace

ContainerMatcher::ContainerMatcher(const MatchSettings& settings, std::optional<Regex> regex)
    : runtimes_(settings.runtimes),
      kubepods_(settings.kubepods),
      systemd_services_(settings.systemd_services),
      regex_(std::move(regex)) {}

Result<ContainerMatcher> ContainerMatcher::create(const MatchSettings& settings) {
  std::optional<Regex> regex;
  if (!settings.path_regex.empty()) {
    Result<Regex> compiled = Regex::compile(settings.path_regex);
    if (!compiled) {
      return Error{"container path regex " + quote_for_error(settings.path_regex) +
                   " does not compile: " + compiled.error()};
    }
    regex = *std::move(compiled);
  }
  return ContainerMatcher(settings, std::move(regex));
}

std::optional<ContainerIdentity> ContainerMatcher::match(std::string_view path) const {
  const std::vector<std::string_view> components = components_of(path);
  if (components.empty()) return std::nullopt;
  const size_t last = components.size() - 1;
  const std::string_view parent = last > 0 ? components[last - 1] : std::string_view();
  const std::optional<Pod> pod = last > 0 ? pod_of(components, last - 1) : std::nullopt;
  if (pod) {
    if (kubepods_) {
      if (std::optional<ContainerIdentity> found = pod_container(components[last])) {
        found->pod_uid = pod->uid;
        found->qos = pod->qos;
        return found;
      }
    }
  } else if (runtimes_) {
    if (auto found = runtime_container(components[last], parent)) return found;
  }
  if (systemd_services_ && components.size() == 2 && components[0] == "system.slice" &&
      components[1].ends_with(".service")) {
    return ContainerIdentity{std::string(components[1]), Runtime::systemd};
  }
  if (regex_ && regex_->search(path)) {
    return ContainerIdentity{std::string(components[last]), Runtime::custom};
  }
  return std::nullopt;
}

}  // namespace flightrec::container
