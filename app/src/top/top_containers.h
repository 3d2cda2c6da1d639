#pragma once
// `flightrec top`'s CONTAINER column: the container each process runs in, named as replay and the
// incident viewer name it (container::display_name), from the node files the daemon's container
// tier reads (containers.names.*, docs/CONTAINERS.md "Names"). top runs without the daemon and so
// without container frames to join against: it names the container id the process's cgroup path
// carries (Docker, containerd, CRI-O, Podman, a kubelet's cgroupfs ids).
#include <memory>
#include <optional>
#include <string>

#include "flightrec/container/names/name_resolver.h"
#include "flightrec/process/process_frame.h"

namespace flightrec::app::detail {

class TopContainerNames {
 public:
  // `settings` null (containers.names.enabled: false): each container by its id alone.
  explicit TopContainerNames(std::optional<container::names::NameSettings> settings);

  // "namespace/pod/container", the runtime's name, or the id cut to 12; "" for a process in no
  // container. As the node's files gave it: the caller makes it printable.
  std::string name_of(const process::ProcessRow& row);

 private:
  std::unique_ptr<container::names::NameResolver> resolver_;
};

}  // namespace flightrec::app::detail
