#include "flightrec/container/cgroups/cgroup_layout.h"

#include <catch2/catch.hpp>

#include "fake_proc_tree.h"
#include "temp_dir.h"

using namespace flightrec::container;
using flightrec::sampler::ProcRoot;
using flightrec::testing::FakeProcTree;
using flightrec::testing::fixture_path;

namespace {
ProcRoot root_at(const std::filesystem::path& cgroupfs) {
  ProcRoot root;
  root.cgroupfs = cgroupfs;
  return root;
}
}  // namespace

TEST_CASE("detect_cgroup_layout sees cgroup v2 at the root", "[container][layout]") {
  const auto root = fixture_path("cgroup/v2-systemd-docker");
  const auto layout = detect_cgroup_layout(root_at(root));
  REQUIRE(layout.ok());
  CHECK(layout->mode == CgroupMode::unified);
  CHECK(layout->unified == root);
  CHECK(layout->walk_root() == root);
  CHECK(layout->hierarchy(Controller::memory) == root);
  CHECK(layout->hierarchy(Controller::cpuacct).empty());
  CHECK(controller_name(Controller::io, layout->mode) == "io");
}

TEST_CASE("detect_cgroup_layout finds v1 controllers mounted apart, and the unified mount",
          "[container][layout]") {
  const auto root = fixture_path("cgroup/v1-hybrid-cgroupfs");
  const auto layout = detect_cgroup_layout(root_at(root));
  REQUIRE(layout.ok());
  CHECK(layout->mode == CgroupMode::hybrid);
  CHECK(layout->unified == root / "unified");
  CHECK(layout->hierarchy(Controller::cpu) == root / "cpu");
  CHECK(layout->hierarchy(Controller::cpuacct) == root / "cpuacct");
  CHECK(layout->hierarchy(Controller::memory) == root / "memory");
  CHECK(layout->hierarchy(Controller::io) == root / "blkio");
  CHECK(layout->hierarchy(Controller::pids) == root / "pids");
  CHECK(layout->walk_root() == root / "cpu");
  CHECK(controller_name(Controller::io, layout->mode) == "blkio");
}

TEST_CASE("detect_cgroup_layout names co-mounted controllers by the directory, not its aliases",
          "[container][layout]") {
  const auto root = fixture_path("cgroup/v1-hybrid-systemd");
  const auto layout = detect_cgroup_layout(root_at(root));
  REQUIRE(layout.ok());
  CHECK(layout->hierarchy(Controller::cpu) == root / "cpu,cpuacct");
  CHECK(layout->hierarchy(Controller::cpuacct) == root / "cpu,cpuacct");
  CHECK(layout->unified == root / "unified");
}

TEST_CASE("detect_cgroup_layout takes an alias when it is the only name", "[container][layout]") {
  const FakeProcTree tree;
  tree.file("real-cpu-mount/cgroup.procs", "").symlink("cpu", "real-cpu-mount");
  const auto layout = detect_cgroup_layout(root_at(tree.root()));
  REQUIRE(layout.ok());
  CHECK(layout->hierarchy(Controller::cpu) == tree.root() / "cpu");
  CHECK(layout->hierarchy(Controller::memory).empty());
  CHECK(layout->unified.empty());
}

TEST_CASE("detect_cgroup_layout walks memory when cpu is not mounted", "[container][layout]") {
  const FakeProcTree tree;
  tree.dir("cpu").file("memory/cgroup.procs", "");  // cpu: an empty mount point
  const auto layout = detect_cgroup_layout(root_at(tree.root()));
  REQUIRE(layout.ok());
  CHECK(layout->hierarchy(Controller::cpu).empty());
  CHECK(layout->walk_root() == tree.root() / "memory");
}

TEST_CASE("detect_cgroup_layout says why a root holds no cgroup hierarchy", "[container][layout]") {
  const FakeProcTree tree;
  tree.dir("cpu").file("unified/cgroup.controllers", "").file("unified/cgroup.procs", "");
  const auto empty = detect_cgroup_layout(root_at(tree.root()));
  REQUIRE_FALSE(empty.ok());
  CHECK(empty.error() == tree.root().string() +
                             " holds no cgroup hierarchy: no cgroup.controllers (cgroup v2) and no "
                             "directory named for a v1 controller (cpu, cpuacct, memory, blkio, "
                             "pids) that holds cgroup.procs");

  const auto missing = detect_cgroup_layout(root_at(tree.root() / "nonexistent"));
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().starts_with("cannot list " + (tree.root() / "nonexistent").string()));
}
