// The containers seen lately: found by their cgroup or one below it, forgotten `keep` after they
// were last seen; alert labels naming a container are this node's only when it ran here.
#include "flightrec/trigger/container_directory.h"

#include <catch2/catch.hpp>

#include "container_fixture.h"

using namespace flightrec;
using flightrec::testing::container_info;
using flightrec::testing::Round;
using trigger::ContainerScope;
using namespace std::chrono_literals;

namespace {

constexpr int64_t kSecond = 1'000'000'000;
constexpr std::string_view kId = "4c5d1b0e7f2a9c3d8e6b1a0f4c5d1b0e7f2a9c3d8e6b1a0f4c5d1b0e7f2a9c3d";
const auto kWeb = container_info("/kubepods/burstable/pod7/" + std::string(kId), std::string(kId),
                                 "prod", "checkout-7f9c", "app");

}  // namespace

TEST_CASE("A cgroup is found as its container's, or under it, until `keep` has passed",
          "[container_directory]") {
  trigger::ContainerDirectory directory(10s);
  CHECK(directory.by_cgroup(kWeb->ref.path) == nullptr);
  directory.observe(Round(0, true, {{kWeb, {}}}).round);
  CHECK(directory.by_cgroup(kWeb->ref.path) == kWeb);
  CHECK(directory.by_cgroup(kWeb->ref.path + "/worker") == kWeb);
  CHECK(directory.by_cgroup("/kubepods/burstable/pod7") == nullptr);
  CHECK(directory.by_cgroup("/") == nullptr);
  // Gone from the rounds: still known for `keep`, then forgotten.
  directory.observe(Round(10 * kSecond, true, {}).round);
  CHECK(directory.by_cgroup(kWeb->ref.path) == kWeb);
  directory.observe(Round(11 * kSecond, true, {}).round);
  CHECK(directory.by_cgroup(kWeb->ref.path) == nullptr);
}

TEST_CASE("Fast rounds add nothing; the bound forgets the oldest", "[container_directory]") {
  trigger::ContainerDirectory directory(1h, 2);
  directory.observe(Round(0, false, {{kWeb, {}}}).round);
  CHECK(directory.by_cgroup(kWeb->ref.path) == nullptr);
  const auto a = container_info("/a", "a");
  const auto b = container_info("/b", "b");
  directory.observe(Round(1, true, {{kWeb, {}}}).round);
  directory.observe(Round(2, true, {{a, {}}}).round);
  directory.observe(Round(3, true, {{b, {}}}).round);
  CHECK(directory.by_cgroup(kWeb->ref.path) == nullptr);
  CHECK(directory.by_cgroup("/a") == a);
  CHECK(directory.by_cgroup("/b") == b);
}

TEST_CASE("Alert labels naming a container are in scope where it ran", "[container_directory]") {
  trigger::ContainerDirectory directory(10min);
  const config::AlertLabels pod{
      {"alertname", "PodCrash"}, {"namespace", "prod"}, {"pod", "checkout-7f9c"}};
  CHECK(directory.scope_of(pod) == ContainerScope::unnamed);  // no round seen yet
  directory.observe(Round(0, true, {{kWeb, {}}}).round);
  CHECK(directory.scope_of(pod) == ContainerScope::here);
  CHECK(directory.scope_of({{"namespace", "prod"}}) == ContainerScope::here);
  CHECK(directory.scope_of({{"pod", "checkout-7f9c"}, {"container", "app"}}) ==
        ContainerScope::here);
  CHECK(directory.scope_of({{"container_id", "containerd://" + std::string(kId)}}) ==
        ContainerScope::here);
  CHECK(directory.scope_of({{"id", kWeb->ref.path}}) == ContainerScope::here);
  CHECK(directory.scope_of({{"namespace", "prod"}, {"pod", "checkout-1111"}}) ==
        ContainerScope::elsewhere);
  CHECK(directory.scope_of({{"namespace", "dev"}}) == ContainerScope::elsewhere);
  CHECK(directory.scope_of({{"pod", "checkout-7f9c"}, {"container", "sidecar"}}) ==
        ContainerScope::elsewhere);
  // No container label (or only empty ones): the node filter decides.
  CHECK(directory.scope_of({{"instance", "node-1"}, {"pod", ""}}) == ContainerScope::unnamed);
}
