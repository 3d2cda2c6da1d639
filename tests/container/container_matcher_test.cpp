#include "flightrec/container/cgroups/container_matcher.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

using namespace flightrec::container;

namespace {
const std::string kId = "3f9c1e0b7d2a4c5e8f6a1b2c3d4e5f60718293a4b5c6d7e8f9a0b1c2d3e4f5a6";
const std::string kUid = "9e7d6c5b-4a3f-4e2d-9c1b-0a9f8e7d6c5b";
const std::string kUidSystemd = "9e7d6c5b_4a3f_4e2d_9c1b_0a9f8e7d6c5b";

ContainerMatcher matcher(const MatchSettings& settings = {}) {
  auto created = ContainerMatcher::create(settings);
  REQUIRE(created.ok());
  return std::move(*created);
}

ContainerIdentity identity(Runtime runtime, std::string pod = "", QosClass qos = QosClass::none) {
  return ContainerIdentity{kId, runtime, std::move(pod), qos};
}
}  // namespace

TEST_CASE("ContainerMatcher names each runtime's systemd scope", "[container][matcher]") {
  const ContainerMatcher m = matcher();
  CHECK(m.match("/system.slice/docker-" + kId + ".scope") == identity(Runtime::docker));
  CHECK(m.match("/system.slice/cri-containerd-" + kId + ".scope") == identity(Runtime::containerd));
  CHECK(m.match("/machine.slice/libpod-" + kId + ".scope") == identity(Runtime::podman));
  CHECK(m.match("/user.slice/user-1000.slice/user@1000.service/user.slice/libpod-" + kId +
                ".scope") == identity(Runtime::podman));
  CHECK(m.match("/system.slice/crio-" + kId + ".scope") == identity(Runtime::crio));
}

TEST_CASE("ContainerMatcher names the cgroupfs drivers' directories", "[container][matcher]") {
  const ContainerMatcher m = matcher();
  CHECK(m.match("/docker/" + kId) == identity(Runtime::docker));
  CHECK(m.match("/libpod_parent/libpod-" + kId) == identity(Runtime::podman));
  CHECK_FALSE(m.match("/elsewhere/" + kId));  // a bare id outside docker/ and pods names nothing
}

TEST_CASE("ContainerMatcher reads a pod's uid and QoS class, systemd driver",
          "[container][matcher]") {
  const ContainerMatcher m = matcher();
  CHECK(m.match("/kubepods.slice/kubepods-pod" + kUidSystemd + ".slice/cri-containerd-" + kId +
                ".scope") == identity(Runtime::containerd, kUid, QosClass::guaranteed));
  CHECK(m.match("/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod" + kUidSystemd +
                ".slice/crio-" + kId + ".scope") ==
        identity(Runtime::crio, kUid, QosClass::burstable));
  CHECK(m.match("/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod" + kUidSystemd +
                ".slice/docker-" + kId + ".scope") ==
        identity(Runtime::docker, kUid, QosClass::besteffort));
  // kind's nodes put the kubelet's slices under kubelet.slice.
  CHECK(m.match("/kubelet.slice/kubelet-kubepods.slice/kubelet-kubepods-burstable.slice/"
                "kubelet-kubepods-burstable-pod" +
                kUidSystemd + ".slice/cri-containerd-" + kId + ".scope") ==
        identity(Runtime::containerd, kUid, QosClass::burstable));
}

TEST_CASE("ContainerMatcher reads a pod's uid and QoS class, cgroupfs driver",
          "[container][matcher]") {
  const ContainerMatcher m = matcher();
  CHECK(m.match("/kubepods/pod" + kUid + "/" + kId) ==
        identity(Runtime::cri, kUid, QosClass::guaranteed));
  CHECK(m.match("/kubepods/burstable/pod" + kUid + "/" + kId) ==
        identity(Runtime::cri, kUid, QosClass::burstable));
  CHECK(m.match("/kubepods/besteffort/pod" + kUid + "/crio-" + kId) ==
        identity(Runtime::crio, kUid, QosClass::besteffort));
}

TEST_CASE("ContainerMatcher takes no slice, pod, monitor or service for a container",
          "[container][matcher]") {
  const ContainerMatcher m = matcher();
  const std::vector<std::string> paths{
      "/",
      "",
      "/system.slice",
      "/system.slice/docker.service",
      "/kubepods.slice/kubepods-burstable.slice",
      "/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod" + kUidSystemd + ".slice",
      "/kubepods/burstable/pod" + kUid,
      "/system.slice/crio-conmon-" + kId + ".scope",
      "/machine.slice/libpod-conmon-" + kId + ".scope",
      "/system.slice/docker-" + kId.substr(1) + ".scope",
      "/system.slice/docker-" + std::string(64, 'A') + ".scope",
      "/kubepods/burstable/podNOT-A-UID/" + kId,
      "/kubepods/guaranteed/pod" + kUid + "/" + kId};
  for (const std::string& path : paths) {
    CAPTURE(path);
    CHECK_FALSE(m.match(path));
  }
}

TEST_CASE("ContainerMatcher takes a runtime's scope outside Kubernetes as no pod's",
          "[container][matcher]") {
  CHECK(matcher().match("/other.slice/other-pod" + kUidSystemd + ".slice/cri-containerd-" + kId +
                        ".scope") == identity(Runtime::containerd));
}

TEST_CASE("ContainerMatcher's settings turn each kind off and on", "[container][matcher]") {
  const std::string pod_container = "/kubepods/burstable/pod" + kUid + "/" + kId;
  const std::string docker = "/system.slice/docker-" + kId + ".scope";
  const ContainerMatcher no_pods = matcher({.kubepods = false});
  CHECK_FALSE(no_pods.match(pod_container));
  CHECK(no_pods.match(docker));
  const ContainerMatcher no_runtimes = matcher({.runtimes = false});
  CHECK_FALSE(no_runtimes.match(docker));
  CHECK(no_runtimes.match(pod_container));

  const ContainerMatcher services = matcher({.systemd_services = true});
  CHECK(services.match("/system.slice/nginx.service") ==
        ContainerIdentity{"nginx.service", Runtime::systemd, "", QosClass::none});
  CHECK(services.match(docker) == identity(Runtime::docker));
  CHECK_FALSE(services.match("/user.slice/user-1000.slice/user@1000.service"));
  CHECK_FALSE(services.match("/system.slice/nginx.service/child"));
  CHECK_FALSE(matcher().match("/system.slice/nginx.service"));
}

TEST_CASE("ContainerMatcher's regex takes the paths the built-in rules leave",
          "[container][matcher]") {
  const ContainerMatcher m = matcher({.path_regex = "^/machine\\.slice/machine-qemu.*\\.scope$"});
  CHECK(m.match("/machine.slice/machine-qemu\\x2d1\\x2dvm.scope") ==
        ContainerIdentity{"machine-qemu\\x2d1\\x2dvm.scope", Runtime::custom, "", QosClass::none});
  CHECK(m.match("/system.slice/docker-" + kId + ".scope") == identity(Runtime::docker));
  CHECK_FALSE(m.match("/machine.slice"));
  // With kubepods off, the regex may still take a pod's container: it is then custom.
  const ContainerMatcher pods_by_regex = matcher({.kubepods = false, .path_regex = "/kubepods/"});
  CHECK(pods_by_regex.match("/kubepods/pod" + kUid + "/" + kId)->runtime == Runtime::custom);
}

TEST_CASE("ContainerMatcher::create names a regex that does not compile", "[container][matcher]") {
  const auto created = ContainerMatcher::create({.path_regex = "docker-(["});
  REQUIRE_FALSE(created.ok());
  CHECK(created.error().starts_with("container path regex \"docker-([\" does not compile: "));
}

TEST_CASE("runtime_name and qos_name name every value", "[container][matcher]") {
  CHECK(runtime_name(Runtime::docker) == "docker");
  CHECK(runtime_name(Runtime::containerd) == "containerd");
  CHECK(runtime_name(Runtime::crio) == "crio");
  CHECK(runtime_name(Runtime::podman) == "podman");
  CHECK(runtime_name(Runtime::cri) == "cri");
  CHECK(runtime_name(Runtime::systemd) == "systemd");
  CHECK(runtime_name(Runtime::custom) == "custom");
  CHECK(qos_name(QosClass::none).empty());
  CHECK(qos_name(QosClass::guaranteed) == "guaranteed");
  CHECK(qos_name(QosClass::burstable) == "burstable");
  CHECK(qos_name(QosClass::besteffort) == "besteffort");
}
