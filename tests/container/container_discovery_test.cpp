#include "flightrec/container/cgroups/container_discovery.h"

#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "fake_proc_tree.h"
#include "temp_dir.h"

using namespace flightrec::container;
using flightrec::sampler::ProcRoot;
using flightrec::testing::FakeProcTree;
using flightrec::testing::fixture_path;

namespace {
const std::string kA = "3f9c1e0b7d2a4c5e8f6a1b2c3d4e5f60718293a4b5c6d7e8f9a0b1c2d3e4f5a6";
const std::string kB = "b7e2d4c6a8f0e1d3c5b7a9f1e3d5c7b9a1f3e5d7c9b1a3f5e7d9c1b3a5f7e9d1";
const std::string kC1 = "0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9";
const std::string kPause = "c1d2e3f405162738495a6b7c8d9eafb0c1d2e3f405162738495a6b7c8d9eafb0";
const std::string kC2 = "5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d";
const std::string kC3 = "e9f8d7c6b5a4938271605f4e3d2c1b0ae9f8d7c6b5a4938271605f4e3d2c1b0a";
const std::string kRootless = "7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d9e8f7a6b";
const std::string kUidG = "5c2a8f34-1d6e-4b9a-8c7f-2e1d0a9b8c7d";
const std::string kUidB = "9e7d6c5b-4a3f-4e2d-9c1b-0a9f8e7d6c5b";
const std::string kUidE = "1f2e3d4c-5b6a-4798-8a7b-6c5d4e3f2a1b";

ContainerDiscovery discovery_of(const std::filesystem::path& cgroupfs,
                                const MatchSettings& settings = {}, DiscoveryLimits limits = {}) {
  ProcRoot root;
  root.cgroupfs = cgroupfs;
  auto layout = detect_cgroup_layout(root);
  REQUIRE(layout.ok());
  auto matcher = ContainerMatcher::create(settings);
  REQUIRE(matcher.ok());
  return ContainerDiscovery(std::move(*layout), std::move(*matcher), limits);
}

// "runtime id [pod qos]" of each tracked container, in path order.
std::vector<std::string> summary(const std::vector<ContainerRef>& refs) {
  std::vector<std::string> out;
  for (const ContainerRef& ref : refs) {
    std::string line = std::string(runtime_name(ref.identity.runtime)) + " " + ref.identity.id;
    if (!ref.identity.pod_uid.empty()) {
      line += " " + ref.identity.pod_uid + " " + std::string(qos_name(ref.identity.qos));
    }
    out.push_back(line);
  }
  return out;
}

std::vector<std::string> discover(const std::string& fixture, const MatchSettings& settings = {}) {
  ContainerDiscovery discovery = discovery_of(fixture_path("cgroup/" + fixture), settings);
  const auto changes = discovery.refresh();
  REQUIRE(changes.ok());
  CHECK(changes->removed.empty());
  CHECK(changes->untracked == 0);
  CHECK(summary(changes->added) == summary(discovery.tracked()));
  return summary(discovery.tracked());
}
}  // namespace

TEST_CASE("discovery finds Docker's containers, systemd and cgroupfs drivers",
          "[container][discovery]") {
  CHECK(discover("v2-systemd-docker") == std::vector<std::string>{"docker " + kA, "docker " + kB});
  CHECK(discover("v2-cgroupfs-docker") == std::vector<std::string>{"docker " + kA, "docker " + kB});
}

TEST_CASE("discovery finds Kubernetes containers of every QoS class on containerd",
          "[container][discovery]") {
  // Path order: kubepods-besteffort.slice < kubepods-burstable.slice < kubepods-pod….slice.
  const std::vector<std::string> systemd{
      "containerd " + kC3 + " " + kUidE + " besteffort",
      "containerd " + kC2 + " " + kUidB + " burstable",
      "containerd " + kC1 + " " + kUidG + " guaranteed",
      "containerd " + kPause + " " + kUidG + " guaranteed",
  };
  CHECK(discover("v2-systemd-containerd") == systemd);
  const std::vector<std::string> cgroupfs{
      "cri " + kC3 + " " + kUidE + " besteffort",
      "cri " + kC2 + " " + kUidB + " burstable",
      "cri " + kC1 + " " + kUidG + " guaranteed",
      "cri " + kPause + " " + kUidG + " guaranteed",
  };
  CHECK(discover("v2-cgroupfs-containerd") == cgroupfs);
}

TEST_CASE("discovery finds CRI-O's containers and not their monitors", "[container][discovery]") {
  CHECK(discover("v2-systemd-crio") ==
        std::vector<std::string>{"crio " + kC2 + " " + kUidB + " burstable",
                                 "crio " + kC1 + " " + kUidG + " guaranteed"});
  CHECK(discover("v2-cgroupfs-crio") ==
        std::vector<std::string>{"crio " + kC3 + " " + kUidE + " besteffort"});
}

TEST_CASE("discovery finds Podman's containers, root and rootless", "[container][discovery]") {
  CHECK(discover("v2-systemd-podman") ==
        std::vector<std::string>{"podman " + kPause, "podman " + kRootless});
  CHECK(discover("v2-cgroupfs-podman") == std::vector<std::string>{"podman " + kPause});
}

TEST_CASE("discovery finds containers in a hybrid host's v1 hierarchies",
          "[container][discovery]") {
  CHECK(discover("v1-hybrid-cgroupfs") ==
        std::vector<std::string>{"docker " + kA, "cri " + kC2 + " " + kUidB + " burstable"});
  CHECK(
      discover("v1-hybrid-systemd") ==
      std::vector<std::string>{"containerd " + kC3 + " " + kUidE + " besteffort", "docker " + kA});
}

TEST_CASE("discovery takes systemd's services and regex matches when asked",
          "[container][discovery]") {
  CHECK(discover("v2-systemd-docker", {.systemd_services = true}) ==
        std::vector<std::string>{"systemd containerd.service", "docker " + kA, "docker " + kB,
                                 "systemd docker.service", "systemd ssh.service"});
  CHECK(
      discover("v2-systemd-docker", {.runtimes = false, .path_regex = "session-[0-9]+\\.scope$"}) ==
      std::vector<std::string>{"custom session-2.scope"});
}

TEST_CASE("discovery maps a v2 container into every controller and its PSI",
          "[container][discovery]") {
  const auto root = fixture_path("cgroup/v2-systemd-docker");
  ContainerDiscovery discovery = discovery_of(root);
  REQUIRE(discovery.refresh().ok());
  const ContainerRef& ref = discovery.tracked().front();
  const auto dir = root / "system.slice" / ("docker-" + kA + ".scope");
  CHECK(ref.path == "/system.slice/docker-" + kA + ".scope");
  CHECK(ref.dir(Controller::cpu) == dir);
  CHECK(ref.dir(Controller::cpuacct).empty());
  CHECK(ref.dir(Controller::memory) == dir);
  CHECK(ref.dir(Controller::io) == dir);
  CHECK(ref.dir(Controller::pids) == dir);
  CHECK(ref.pressure_dir == dir);
  // The cgroup's id, by which throttling episodes name it: its cpu directory's inode.
  struct stat info {};
  REQUIRE(::stat(dir.c_str(), &info) == 0);
  CHECK(ref.cgroup_id == info.st_ino);
  CHECK(ref.cgroup_id != 0);
}

TEST_CASE("discovery maps a v1 container into each hierarchy that has it",
          "[container][discovery]") {
  const auto root = fixture_path("cgroup/v1-hybrid-cgroupfs");
  ContainerDiscovery discovery = discovery_of(root);
  REQUIRE(discovery.refresh().ok());
  REQUIRE(discovery.tracked().size() == 2);
  const ContainerRef& docker = discovery.tracked()[0];
  CHECK(docker.dir(Controller::cpu) == root / "cpu/docker" / kA);
  CHECK(docker.dir(Controller::cpuacct) == root / "cpuacct/docker" / kA);
  CHECK(docker.dir(Controller::memory) == root / "memory/docker" / kA);
  CHECK(docker.dir(Controller::io) == root / "blkio/docker" / kA);
  CHECK(docker.dir(Controller::pids) == root / "pids/docker" / kA);
  CHECK(docker.pressure_dir.empty());  // the cgroupfs driver makes nothing in unified/
  const ContainerRef& pod = discovery.tracked()[1];
  CHECK(pod.dir(Controller::io).empty());  // not in the blkio hierarchy
  CHECK_FALSE(pod.dir(Controller::memory).empty());

  ContainerDiscovery systemd = discovery_of(fixture_path("cgroup/v1-hybrid-systemd"));
  REQUIRE(systemd.refresh().ok());
  const ContainerRef& scope = systemd.tracked()[1];
  CHECK(scope.dir(Controller::cpu) == scope.dir(Controller::cpuacct));
  CHECK(scope.pressure_dir == fixture_path("cgroup/v1-hybrid-systemd/unified/system.slice") /
                                  ("docker-" + kA + ".scope"));
}

TEST_CASE("discovery reports containers as they come and go", "[container][discovery]") {
  const FakeProcTree tree = FakeProcTree::copy_of("cgroup/v2-cgroupfs-docker");
  ContainerDiscovery discovery = discovery_of(tree.root());
  REQUIRE(discovery.refresh()->added.size() == 2);

  const auto unchanged = discovery.refresh();
  REQUIRE(unchanged.ok());
  CHECK(unchanged->added.empty());
  CHECK(unchanged->removed.empty());

  tree.remove("docker/" + kA).file("docker/" + kC1 + "/cgroup.procs", "");
  const auto changed = discovery.refresh();
  REQUIRE(changed.ok());
  CHECK(summary(changed->added) == std::vector<std::string>{"docker " + kC1});
  CHECK(summary(changed->removed) == std::vector<std::string>{"docker " + kA});
  CHECK(summary(discovery.tracked()) == std::vector<std::string>{"docker " + kC1, "docker " + kB});
}

TEST_CASE("discovery tracks at most max_containers and counts the rest", "[container][discovery]") {
  const FakeProcTree tree = FakeProcTree::copy_of("cgroup/v2-cgroupfs-docker");
  ContainerDiscovery discovery = discovery_of(tree.root(), {}, {.max_containers = 1});
  const auto first = discovery.refresh();
  REQUIRE(first.ok());
  CHECK(summary(first->added) == std::vector<std::string>{"docker " + kA});
  CHECK(first->untracked == 1);

  // A new container that sorts first waits: the tracked one keeps its place.
  tree.file("docker/" + kC1 + "/cgroup.procs", "");
  const auto second = discovery.refresh();
  REQUIRE(second.ok());
  CHECK(second->added.empty());
  CHECK(second->untracked == 2);
  CHECK(summary(discovery.tracked()) == std::vector<std::string>{"docker " + kA});

  // Once it goes, the first in path order takes its place.
  tree.remove("docker/" + kA);
  const auto third = discovery.refresh();
  REQUIRE(third.ok());
  CHECK(summary(third->removed) == std::vector<std::string>{"docker " + kA});
  CHECK(summary(third->added) == std::vector<std::string>{"docker " + kC1});
  CHECK(third->untracked == 1);
}

TEST_CASE("discovery does not walk below max_depth nor into a container",
          "[container][discovery]") {
  const FakeProcTree tree;
  tree.file("cgroup.controllers", "")
      .file("a/b/c/docker/" + kA + "/cgroup.procs", "")
      .file("docker/" + kB + "/docker/" + kC1 + "/cgroup.procs", "");
  ContainerDiscovery shallow = discovery_of(tree.root(), {}, {.max_depth = 4});
  const auto changes = shallow.refresh();
  REQUIRE(changes.ok());
  CHECK(summary(shallow.tracked()) == std::vector<std::string>{"docker " + kB});
  CHECK(changes->directories == 5);  // /, a, a/b, a/b/c, docker; not a/b/c/docker
  ContainerDiscovery deeper = discovery_of(tree.root(), {}, {.max_depth = 5});
  REQUIRE(deeper.refresh().ok());
  CHECK(summary(deeper.tracked()) == std::vector<std::string>{"docker " + kA, "docker " + kB});
}

TEST_CASE("discovery fails, changing nothing, when its root cannot be listed",
          "[container][discovery]") {
  const FakeProcTree tree = FakeProcTree::copy_of("cgroup/v2-cgroupfs-docker");
  ContainerDiscovery discovery = discovery_of(tree.root());
  REQUIRE(discovery.refresh().ok());
  tree.remove("");
  const auto failed = discovery.refresh();
  REQUIRE_FALSE(failed.ok());
  CHECK(failed.error().starts_with("cannot list " + tree.root().string()));
  CHECK(discovery.tracked().size() == 2);
}
