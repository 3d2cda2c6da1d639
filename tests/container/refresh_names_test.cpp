// Containers that come and go while the resolver runs: what it reads again, and when, and how
// long a container that left keeps its names.
#include <catch2/catch.hpp>

#include "flightrec/container/names/name_resolver.h"
#include "names_fixture.h"

namespace flightrec::container::names {
namespace {

using namespace testing;

const std::string kNginxLink =
    "var/log/containers/web-7d9f8b6c5-x2kqp_shop_nginx-" + kNginx + ".log";

TEST_CASE("an OOM-killed container keeps its names for the grace period after it is removed",
          "[names][refresh]") {
  NamesFixture node("containerd");
  node.settings.grace_period = std::chrono::minutes(10);
  REQUIRE(node.resolver().resolve(kNginx));

  // Killed and removed: its task's bundle and its log link go, its pod's directory stays.
  node.tree.remove(kTasks + kNginx).remove(kNginxLink);
  node.advance(11 * kSecond);  // past the rescan period
  const auto after_exit = node.resolver().resolve(kNginx);
  REQUIRE(after_exit);
  CHECK(after_exit->gone);
  CHECK(after_exit->container == "nginx");
  CHECK(after_exit->image == "docker.io/library/nginx:1.25.3");
  CHECK(after_exit->pod_uid == kWebUid);
  CHECK(node.resolver().stats().gone == 1);

  // Still within the grace period, ten minutes from when it was first missed.
  node.advance(9 * 60 * kSecond);
  REQUIRE(node.resolver().resolve(kNginx));
  node.advance(60 * kSecond);
  CHECK_FALSE(node.resolver().resolve(kNginx));
  CHECK(node.resolver().stats().gone == 0);
  // The others stayed present throughout.
  const auto shipper = node.resolver().resolve(kLogShipper);
  REQUIRE(shipper);
  CHECK_FALSE(shipper->gone);
}

TEST_CASE("a container that comes back within the grace period is present again",
          "[names][refresh]") {
  NamesFixture node("podman");
  const auto list = "var/lib/containers/storage/overlay-containers/volatile-containers.json";
  const std::string kept = flightrec::testing::read_file(node.tree.root() / list);
  node.tree.file(list, "[]");
  node.advance(11 * kSecond);
  REQUIRE(node.resolver().resolve(kPodmanTmp) == std::nullopt);  // never seen: nothing to keep

  node.tree.file(list, kept);
  node.advance(11 * kSecond);
  REQUIRE(node.resolver().resolve(kPodmanTmp));
  node.tree.file(list, "[]");
  node.advance(11 * kSecond);
  REQUIRE(node.resolver().resolve(kPodmanTmp)->gone);
  node.tree.file(list, kept);
  node.advance(11 * kSecond);
  CHECK_FALSE(node.resolver().resolve(kPodmanTmp)->gone);
}

TEST_CASE("sources that did not change are not read again", "[names][refresh]") {
  NamesFixture node("docker");
  node.age();
  node.resolver().refresh();
  const NameStats first = node.resolver().stats();
  CHECK(first.files_read == 3);  // three config.v2.json; the fourth container has none yet
  CHECK(first.containers == 3);

  node.advance(11 * kSecond);
  node.resolver().refresh();
  const NameStats second = node.resolver().stats();
  CHECK(second.checks > first.checks);
  // Docker's directory is listed again for the container whose file it waits for, but no file
  // that was read is read again; the other sources are not listed at all.
  CHECK(second.files_read == first.files_read);
  CHECK(second.rescans == first.rescans + 1);

  // Its file written: read at the next look, though the directory itself did not change.
  const std::string config = flightrec::testing::read_file(
      node.tree.root() / "var/lib/docker/containers" / kCriDockerd / "config.v2.json");
  std::string moved = config;
  for (size_t at = moved.find(kCriDockerd); at != std::string::npos;
       at = moved.find(kCriDockerd, at + 1)) {
    moved.replace(at, kCriDockerd.size(), kBeingCreated);
  }
  const std::string file = "var/lib/docker/containers/" + kBeingCreated + "/config.v2.json";
  node.tree.file(file, moved);
  node.age(file);
  node.advance(11 * kSecond);
  node.resolver().refresh();
  CHECK(node.resolver().stats().files_read == first.files_read + 1);
  REQUIRE(node.resolver().resolve(kBeingCreated));

  // Nothing awaited, nothing changed: nothing is listed or read.
  node.advance(11 * kSecond);
  const NameStats settled = node.resolver().stats();
  node.resolver().refresh();
  CHECK(node.resolver().stats().rescans == settled.rescans);
  CHECK(node.resolver().stats().files_read == settled.files_read);
}

TEST_CASE("a new container is found at its first lookup, at most once per miss period",
          "[names][refresh]") {
  NamesFixture node("containerd");
  node.settings.miss_rescan_period = std::chrono::seconds(1);
  CHECK_FALSE(node.resolver().resolve(kUnknown));
  const uint64_t checks = node.resolver().stats().checks;

  // Within the miss period a lookup of an unknown id looks at nothing.
  node.advance(kSecond / 2);
  node.tree.symlink("var/log/containers/web-7d9f8b6c5-x2kqp_shop_sidecar-" + kUnknown + ".log",
                    "/" + kWebPodDir + "/sidecar/0.log");
  CHECK_FALSE(node.resolver().resolve(kUnknown));
  CHECK(node.resolver().stats().checks == checks);

  // After it, the lookup looks again and finds the new link, long before the rescan period.
  node.advance(kSecond / 2);
  const auto sidecar = node.resolver().resolve(kUnknown);
  REQUIRE(sidecar);
  CHECK(sidecar->container == "sidecar");
  CHECK(sidecar->pod_uid == kWebUid);
  CHECK(node.resolver().stats().checks > checks);
  // A known container's lookup looks at nothing before the rescan period.
  const uint64_t known = node.resolver().stats().checks;
  node.advance(5 * kSecond);
  REQUIRE(node.resolver().resolve(kNginx));
  CHECK(node.resolver().stats().checks == known);
}

TEST_CASE("a source with more containers than the limit names the first ones and says so",
          "[names][refresh]") {
  NamesFixture node("podman");
  node.settings.max_containers = 1;
  node.resolver().refresh();
  const auto problems = node.resolver().take_problems();
  REQUIRE(problems.size() == 1);
  CHECK(problems[0] ==
        (node.tree.root() / "var/lib/containers/storage/overlay-containers/containers.json")
                .string() +
            ": more than 1 containers; the rest are not named");
  CHECK(node.resolver().stats().containers == 2);  // one of each list
}

TEST_CASE("gone containers beyond the limit are forgotten first-gone first", "[names][refresh]") {
  NamesFixture node("containerd");
  node.settings.max_containers = 1;
  node.settings.container_logs.clear();
  node.resolver().refresh();
  REQUIRE(node.resolver().stats().containers == 1);  // the limit: one bundle of three
  node.tree.remove(kTasks);
  node.advance(11 * kSecond);
  node.resolver().refresh();
  CHECK(node.resolver().stats().gone == 1);
}

}  // namespace
}  // namespace flightrec::container::names
