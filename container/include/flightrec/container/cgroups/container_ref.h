#pragma once
// One container as discovery found it: which cgroup it is, what runs it, and where each
// controller's files for it are.
#include <array>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "flightrec/container/cgroups/cgroup_layout.h"

namespace flightrec::container {

enum class Runtime : uint8_t {
  docker,      // docker-<id>.scope, /docker/<id>
  containerd,  // cri-containerd-<id>.scope
  crio,        // crio-<id>.scope, crio-<id> (CRI-O's cgroupfs manager)
  podman,      // libpod-<id>.scope, /libpod_parent/libpod-<id>
  cri,         // a bare <id> in a Kubernetes pod (cgroupfs driver): the path does not name it
  systemd,     // a service under system.slice, when services count as containers
  custom,      // matched by the configured path regex
};

// What Kubernetes guarantees the pod; `none` outside Kubernetes.
enum class QosClass : uint8_t { none, guaranteed, burstable, besteffort };

std::string_view runtime_name(Runtime runtime);  // "docker", "containerd", ... "custom"
std::string_view qos_name(QosClass qos);         // "", "guaranteed", "burstable", "besteffort"

// What the path alone says about a container.
struct ContainerIdentity {
  // The runtime's 64-hex id; a service's unit name ("nginx.service"); for a regex match, the
  // path's last component.
  std::string id;
  Runtime runtime = Runtime::custom;
  std::string pod_uid;  // Kubernetes pods only, with dashes (systemd writes them as '_')
  QosClass qos = QosClass::none;
  bool operator==(const ContainerIdentity&) const = default;
};

struct ContainerRef {
  // The cgroup path, as /proc/<pid>/cgroup shows it: "/system.slice/docker-<id>.scope". The same
  // in every hierarchy.
  std::string path;
  ContainerIdentity identity;
  // The cgroup's directory in each controller's hierarchy (index: Controller), empty where that
  // hierarchy is not mounted or has no such cgroup.
  std::array<std::filesystem::path, kControllerCount> dirs;
  // The v2 directory with its PSI files: dirs' own on v2; on a hybrid host the same path under
  // unified/, when that exists (systemd's scopes and slices have one, cgroupfs-driver containers
  // do not).
  std::filesystem::path pressure_dir;
  // The inode of the cpu controller's directory (dirs[cpu]): the kernel's cgroup id, by which
  // ThrottleEpisode names the group. 0 without a cpu directory or when it could not be read.
  uint64_t cgroup_id = 0;

  [[nodiscard]] const std::filesystem::path& dir(Controller controller) const {
    return dirs[static_cast<size_t>(controller)];
  }
  bool operator==(const ContainerRef&) const = default;
};

// `relative` ("/a/b") under `hierarchy`; std::filesystem's '/' would drop the hierarchy for an
// absolute right-hand side.
std::filesystem::path cgroup_dir(const std::filesystem::path& hierarchy, std::string_view relative);

}  // namespace flightrec::container
