#include "flightrec/process/pid_cgroup.h"

#include <catch2/catch.hpp>
#include <string>

using flightrec::process::container_id_from_cgroup;
using flightrec::process::parse_pid_cgroup;

namespace {
const std::string kId = "4f6c2b1e9a8d7c3b2a1f0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d0c9b";
const std::string kOther = "c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00";
}  // namespace

TEST_CASE("parse_pid_cgroup returns the cgroup v2 path", "[pid_cgroup]") {
  const auto cgroup = parse_pid_cgroup("0::/system.slice/ssh.service\n");
  REQUIRE(cgroup.ok());
  CHECK(cgroup->path == "/system.slice/ssh.service");
  CHECK(cgroup->container_id.empty());
}

TEST_CASE("parse_pid_cgroup prefers the 0:: line on a hybrid host", "[pid_cgroup]") {
  const auto cgroup = parse_pid_cgroup(
      "9:name=systemd:/\n4:memory:/process_api/dd12393395600e80a91e84dd23d4347c\n0::/user.slice\n");
  REQUIRE(cgroup.ok());
  CHECK(cgroup->path == "/user.slice");
}

TEST_CASE("parse_pid_cgroup falls back to name=systemd on a v1-only host", "[pid_cgroup]") {
  const auto cgroup =
      parse_pid_cgroup("4:memory:/docker/" + kId + "\n1:name=systemd:/docker/" + kId + "\n");
  REQUIRE(cgroup.ok());
  CHECK(cgroup->path == "/docker/" + kId);
  CHECK(cgroup->container_id == kId);

  const auto no_systemd = parse_pid_cgroup("4:memory:/a\n3:cpu:/b\n");
  REQUIRE(no_systemd.ok());
  CHECK(no_systemd->path.empty());
}

TEST_CASE("parse_pid_cgroup takes the container id from a v1 line when 0:: names none",
          "[pid_cgroup]") {
  const auto cgroup = parse_pid_cgroup("4:memory:/docker/" + kId + "\n0::/\n");
  REQUIRE(cgroup.ok());
  CHECK(cgroup->path == "/");
  CHECK(cgroup->container_id == kId);

  const auto both = parse_pid_cgroup("4:memory:/docker/" + kOther + "\n0::/system.slice/docker-" +
                                     kId + ".scope\n");
  REQUIRE(both.ok());
  CHECK(both->container_id == kId);
}

TEST_CASE("parse_pid_cgroup keeps colons inside the path", "[pid_cgroup]") {
  const auto cgroup = parse_pid_cgroup("0::/odd:name/x\n");
  REQUIRE(cgroup.ok());
  CHECK(cgroup->path == "/odd:name/x");
}

TEST_CASE("parse_pid_cgroup names a line that is not hierarchy:controllers:path", "[pid_cgroup]") {
  const auto cgroup = parse_pid_cgroup("0::/\ngarbage\n");
  REQUIRE_FALSE(cgroup.ok());
  CHECK_THAT(cgroup.error(), Catch::Matchers::Contains("line 2"));
  CHECK_THAT(cgroup.error(), Catch::Matchers::Contains("garbage"));
}

TEST_CASE("container_id_from_cgroup recognises the runtimes' systemd scopes", "[pid_cgroup]") {
  CHECK(container_id_from_cgroup("/system.slice/docker-" + kId + ".scope") == kId);
  CHECK(container_id_from_cgroup("/machine.slice/libpod-" + kId + ".scope") == kId);
  CHECK(container_id_from_cgroup("/kubepods.slice/kubepods-burstable.slice/"
                                 "kubepods-burstable-pod1_2.slice/cri-containerd-" +
                                 kId + ".scope") == kId);
  CHECK(container_id_from_cgroup("/kubepods.slice/kubepods-pod1.slice/crio-" + kId + ".scope") ==
        kId);
}

TEST_CASE("container_id_from_cgroup recognises cgroupfs-driver directories", "[pid_cgroup]") {
  CHECK(container_id_from_cgroup("/docker/" + kId) == kId);
  CHECK(container_id_from_cgroup("/kubepods/burstable/pod3f1e2d4c-5b6a/" + kId) == kId);
  CHECK(container_id_from_cgroup("/kubepods/besteffort/pod1/" + kId + "/") == kId);
}

TEST_CASE("container_id_from_cgroup takes the innermost container", "[pid_cgroup]") {
  CHECK(container_id_from_cgroup("/docker/" + kId + "/init.scope") == kId);
  CHECK(container_id_from_cgroup("/system.slice/docker-" + kOther + ".scope/docker/" + kId) == kId);
}

TEST_CASE("container_id_from_cgroup finds nothing in paths that name no container",
          "[pid_cgroup]") {
  CHECK(container_id_from_cgroup("").empty());
  CHECK(container_id_from_cgroup("/").empty());
  CHECK(container_id_from_cgroup("/system.slice/docker.service").empty());
  CHECK(container_id_from_cgroup("/user.slice/user-1000.slice/session-3.scope").empty());
  // A bare id outside docker/ or kubepods could be anything.
  CHECK(container_id_from_cgroup("/" + kId).empty());
  CHECK(container_id_from_cgroup("/other/" + kId).empty());
  // The container monitor's scope is not the container.
  CHECK(container_id_from_cgroup("/machine.slice/libpod-conmon-" + kId + ".scope").empty());
  // 63 or 65 digits, or upper case, are not an id.
  CHECK(container_id_from_cgroup("/docker/" + kId.substr(1)).empty());
  CHECK(container_id_from_cgroup("/docker/" + kId + "0").empty());
  std::string upper = kId;
  upper[0] = 'F';
  CHECK(container_id_from_cgroup("/docker/" + upper).empty());
  CHECK(container_id_from_cgroup("/system.slice/docker-" + kId + ".service").empty());
}
