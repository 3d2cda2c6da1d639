#include "flightrec/container/cgroups/container_ref.h"

namespace flightrec::container {

std::string_view runtime_name(Runtime runtime) {
  switch (runtime) {
    case Runtime::docker:
      return "docker";
    case Runtime::containerd:
      return "containerd";
    case Runtime::crio:
      return "crio";
    case Runtime::podman:
      return "podman";
    case Runtime::cri:
      return "cri";
    case Runtime::systemd:
      return "systemd";
    case Runtime::custom:
      return "custom";
  }
  return "custom";
}

std::string_view qos_name(QosClass qos) {
  switch (qos) {
    case QosClass::none:
      return "";
    case QosClass::guaranteed:
      return "guaranteed";
    case QosClass::burstable:
      return "burstable";
    case QosClass::besteffort:
      return "besteffort";
  }
  return "";
}

std::filesystem::path cgroup_dir(const std::filesystem::path& hierarchy,
                                 std::string_view relative) {
  while (relative.starts_with('/')) relative.remove_prefix(1);
  return relative.empty() ? hierarchy : hierarchy / relative;
}

}  // namespace flightrec::container
