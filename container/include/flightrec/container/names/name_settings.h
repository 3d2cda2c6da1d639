#pragma once
// Where names are read from and how often: a plain struct for now (the config keys come later).
// Every path is read under `root`, so a daemon in a container reads the host's files through a
// read-only mount of them (root: /host), and tests point it at a fixture tree. An empty path
// turns that source off.
#include <chrono>
#include <cstddef>
#include <filesystem>
#include <vector>

namespace flightrec::container::names {

struct NameSettings {
  std::filesystem::path root = "/";

  // The kubelet's: one link per container, named <pod>_<namespace>_<container>-<id>.log.
  std::filesystem::path container_logs = "/var/log/containers";
  // The kubelet's: one directory per pod, <namespace>_<pod>_<uid>.
  std::filesystem::path pod_logs = "/var/log/pods";
  // Docker's <data-root>/containers: <id>/config.v2.json per container.
  std::filesystem::path docker_containers = "/var/lib/docker/containers";
  // containers/storage's (Podman, CRI-O) <driver>-containers directories, each holding
  // containers.json and volatile-containers.json: the graph root's, and the run root's, where
  // a transient store keeps them. A rootless user's store is
  // ~/.local/share/containers/storage/overlay-containers.
  std::vector<std::filesystem::path> storage_containers = {
      "/var/lib/containers/storage/overlay-containers",
      "/run/containers/storage/overlay-containers"};
  // containerd's running tasks in the CRI plugin's namespace: <id>/config.json per container
  // (k3s keeps its containerd's under /run/k3s/containerd).
  std::filesystem::path containerd_tasks = "/run/containerd/io.containerd.runtime.v2.task/k8s.io";

  // How often the sources are looked at for changes (a stat each; re-read only when changed).
  std::chrono::milliseconds rescan_period{10'000};
  // How soon a container no source knows makes them be looked at again.
  std::chrono::milliseconds miss_rescan_period{1'000};
  // How long a container's names stay known after it left every source: a recording of the
  // minutes before can still name a container that has exited (or been OOM-killed) and been
  // removed since.
  std::chrono::milliseconds grace_period{600'000};

  // At most this many containers per source are named; the rest are reported as a problem.
  size_t max_containers = 16384;
  // The largest single container's state file read (config.v2.json, an OCI config.json).
  size_t max_state_file_bytes = 1 << 20;
  // The largest containers.json read (one entry of about 1 KiB per container).
  size_t max_container_list_bytes = 64 << 20;
};

// `path` read under `settings.root`: "/var/log/pods" under "/host" is "/host/var/log/pods".
[[nodiscard]] std::filesystem::path under_root(const NameSettings& settings,
                                               const std::filesystem::path& path);

}  // namespace flightrec::container::names
