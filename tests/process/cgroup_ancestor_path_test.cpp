// The path of the cgroup whose memory limit the exit program found, from the victim's cgroup path
// and that cgroup's depth.
#include <catch2/catch.hpp>

#include "flightrec/process/process_exits.h"

using flightrec::process::cgroup_ancestor_path;

TEST_CASE("An ancestor's path is the first components of the cgroup's", "[network][exits]") {
  CHECK(cgroup_ancestor_path("/kubepods/burstable/pod1/ctr", 4) == "/kubepods/burstable/pod1/ctr");
  CHECK(cgroup_ancestor_path("/kubepods/burstable/pod1/ctr", 3) == "/kubepods/burstable/pod1");
  CHECK(cgroup_ancestor_path("/kubepods/burstable/pod1/ctr", 1) == "/kubepods");
  CHECK(cgroup_ancestor_path("/kubepods/burstable/pod1/ctr", 0) == "/");
  CHECK(cgroup_ancestor_path("/", 0) == "/");
}

TEST_CASE("A path too short for the depth gives no ancestor", "[network][exits]") {
  // The exit program cuts a long path, and gives "" when it could not read it.
  CHECK(cgroup_ancestor_path("/a/b", 3).empty());
  CHECK(cgroup_ancestor_path("/", 1).empty());
  CHECK(cgroup_ancestor_path("", 1).empty());
  CHECK(cgroup_ancestor_path("", 0).empty());
}
