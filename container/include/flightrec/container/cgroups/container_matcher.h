#pragma once
// What counts as a container: a cgroup path classified by the layouts the container runtimes and
// the kubelet create (systemd and cgroupfs drivers), optionally systemd's services, and an
// optional regex over the path for the rest. Settings are a plain struct; the configuration keys
// that fill it come with the daemon's wiring. docs/CONTAINERS.md lists the layouts.
#include <optional>
#include <string>
#include <string_view>

#include "flightrec/common/regex.h"
#include "flightrec/common/result.h"
#include "flightrec/container/cgroups/container_ref.h"

namespace flightrec::container {

struct MatchSettings {
  // Docker, containerd, CRI-O and Podman containers outside Kubernetes.
  bool runtimes = true;
  // The containers of Kubernetes pods (kubepods), with their pod's uid and QoS class.
  bool kubepods = true;
  // /system.slice/<name>.service: on a host without containers, its services are the units
  // worth watching one by one.
  bool systemd_services = false;
  // RE2, searched in the cgroup path ("/machine.slice/qemu-1.scope"); "" for none. Asked only of
  // the paths the rules above do not take.
  std::string path_regex;
};

class ContainerMatcher {
 public:
  // An error when path_regex does not compile, naming it and RE2's reason.
  static Result<ContainerMatcher> create(const MatchSettings& settings);

  // What the path is, or nullopt when it is not a container (a slice, a pod, a conmon scope, the
  // root).
  [[nodiscard]] std::optional<ContainerIdentity> match(std::string_view path) const;

 private:
  ContainerMatcher(const MatchSettings& settings, std::optional<Regex> regex);

  bool runtimes_;
  bool kubepods_;
  bool systemd_services_;
  std::optional<Regex> regex_;
};

}  // namespace flightrec::container
