// The join of a process row to its container: by runtime id, else by the cgroup path it lives in
// or below; and the container frame nearest in time to a process frame.
#include "flightrec/container/frame/process_container.h"

#include <catch2/catch.hpp>

using namespace flightrec::container;

namespace {

const std::string kDockerId(64, 'a');
const std::string kPodId(64, 'b');

ContainerRow container_row(std::string path, std::string id) {
  ContainerRow row;
  row.path = std::move(path);
  row.id = std::move(id);
  return row;
}

ContainerFrame frame_of_three() {
  ContainerFrame frame;
  // Not in path order: the lookup sorts what it is given.
  frame.containers = {
      container_row("/system.slice/nginx.service", "nginx.service"),
      container_row("/system.slice/docker-" + kDockerId + ".scope", kDockerId),
      container_row("/kubepods/burstable/pod1234/" + kPodId, kPodId),
  };
  return frame;
}

}  // namespace

TEST_CASE("a process with a runtime id joins the container of that id", "[process_container]") {
  const ContainerFrame frame = frame_of_three();
  const ContainerLookup lookup(frame);
  const ContainerRow* found = lookup.find("/docker/" + kDockerId, kDockerId);
  REQUIRE(found != nullptr);
  CHECK(found->id == kDockerId);
  // The id wins over the path: Docker's cgroupfs driver on a hybrid host names the container only
  // in the v1 lines, while the process's path is the systemd one.
  found = lookup.find("/system.slice/nginx.service", kPodId);
  REQUIRE(found != nullptr);
  CHECK(found->id == kPodId);
}

TEST_CASE("a process without a runtime id joins the cgroup it is in or below",
          "[process_container]") {
  const ContainerFrame frame = frame_of_three();
  const ContainerLookup lookup(frame);
  const ContainerRow* service = lookup.find("/system.slice/nginx.service", "");
  REQUIRE(service != nullptr);
  CHECK(service->id == "nginx.service");
  const ContainerRow* below = lookup.find("/system.slice/nginx.service/worker", "");
  REQUIRE(below != nullptr);
  CHECK(below->id == "nginx.service");
  // systemd inside a container whose id is not in the frame: still found by its path.
  const ContainerRow* init =
      lookup.find("/kubepods/burstable/pod1234/" + kPodId + "/init.scope", std::string(64, 'c'));
  REQUIRE(init != nullptr);
  CHECK(init->id == kPodId);
}

TEST_CASE("a host process, or one whose cgroup only shares a prefix, joins nothing",
          "[process_container]") {
  const ContainerFrame frame = frame_of_three();
  const ContainerLookup lookup(frame);
  CHECK(lookup.find("/user.slice/user-1000.slice/session-3.scope", "") == nullptr);
  CHECK(lookup.find("/system.slice/nginx.service2", "") == nullptr);  // a sibling, not below
  CHECK(lookup.find("/system.slice", "") == nullptr);                 // above a container
  CHECK(lookup.find("/", "") == nullptr);
  CHECK(lookup.find("", "") == nullptr);
  CHECK(ContainerLookup().find("/system.slice/nginx.service", kDockerId) == nullptr);
}

TEST_CASE("the frame nearest in time, the earlier of two as near", "[process_container]") {
  const std::vector<int64_t> times{1000, 2000, 3000};
  const auto nearest = [&times](int64_t t) {
    return nearest_frame(times, t, [](int64_t time) { return time; });
  };
  CHECK(nearest(0) == 0);
  CHECK(nearest(1000) == 0);
  CHECK(nearest(1499) == 0);
  CHECK(nearest(1500) == 0);
  CHECK(nearest(1501) == 1);
  CHECK(nearest(2999) == 2);
  CHECK(nearest(9000) == 2);
  CHECK(nearest_frame(std::vector<int64_t>{}, 5, [](int64_t time) { return time; }) == -1);
}
