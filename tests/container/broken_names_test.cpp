// State files and directories that are not what they should be: each is a problem reported
// once, naming the file, and nothing else stops being named.
#include <algorithm>
#include <catch2/catch.hpp>

#include "flightrec/container/names/name_resolver.h"
#include "names_fixture.h"

namespace flightrec::container::names {
namespace {

using namespace testing;

const std::string kBrokenJson = "d4cd4cb0729fb200f979092f3a8843223466866fd864d7fd6b70e6c0e707c907";
const std::string kBrokenLabels =
    "bf31d56429267045fb720b67fafbf3af3cf60ff1d92bb95e746e653b729eee14";
const std::string kBrokenId = "c15b4018fc916eada38659f2ac1262ccb381bd9c14ab447bba6c578e2e908ec9";

bool has(const std::vector<std::string>& problems, const std::string& text) {
  return std::find(problems.begin(), problems.end(), text) != problems.end();
}

bool has_prefix(const std::vector<std::string>& problems, const std::string& prefix) {
  return std::any_of(problems.begin(), problems.end(),
                     [&](const std::string& problem) { return problem.starts_with(prefix); });
}

TEST_CASE("malformed state is reported once, naming the file, and names nothing",
          "[names][broken]") {
  NamesFixture node("broken");
  node.age();
  const std::string root = node.tree.root().string();
  const std::string docker = root + "/var/lib/docker/containers/";
  node.resolver().refresh();
  const auto problems = node.resolver().take_problems();
  CHECK(problems.size() == 6);
  CHECK(has_prefix(problems, docker + kBrokenJson + "/config.v2.json: not JSON ("));
  CHECK(has(problems, docker + kBrokenLabels +
                          "/config.v2.json: Config.Labels: expected an object, got array"));
  CHECK(has(problems, docker + kBrokenId + "/config.v2.json: its id " +
                          "d9298a10d1b0735837dc4bd85dac641b0f3cef27a47e5d53a54f2f3f5b2fcffa" +
                          " is not its directory's"));
  CHECK(has_prefix(problems, root + "/var/lib/containers/storage/overlay-containers/" +
                                 "containers.json: [0].metadata: not JSON ("));
  CHECK(has(problems, root + "/var/log/containers/README: no \".log\" at the end"));
  CHECK(has(problems, root + "/var/log/pods/lost+found: not 3 parts separated by '_' " +
                          "(<namespace>_<pod>_<uid>)"));
  for (const auto& problem : problems) CHECK(problem.find('\n') == std::string::npos);
  CHECK(node.resolver().stats().problems == 6);
  CHECK(node.resolver().stats().containers == 0);

  // Looked at again (and the directories read again): the same problems are not news.
  node.tree.file("var/log/containers/NOTES", "");
  node.advance(11 * kSecond);
  node.resolver().refresh();
  const auto again = node.resolver().take_problems();
  REQUIRE(again.size() == 1);
  CHECK(again[0] == root + "/var/log/containers/NOTES: no \".log\" at the end");

  // A file put right is read again, though its directory (all Docker's source watches) did
  // not change, and names its container.
  const std::string labels = "var/lib/docker/containers/" + kBrokenLabels + "/config.v2.json";
  node.tree.file(labels, R"({"ID":")" + kBrokenLabels + R"(","Name":"/labels","Config":{}})");
  node.age(labels);
  node.advance(11 * kSecond);
  const auto fixed = node.resolver().resolve(kBrokenLabels);
  REQUIRE(fixed);
  CHECK(fixed->name == "labels");
}

TEST_CASE("a state file over its limit is refused, naming it", "[names][broken]") {
  NamesFixture node("podman");
  node.settings.max_container_list_bytes = 100;
  node.resolver().refresh();
  const auto problems = node.resolver().take_problems();
  const std::string lists =
      node.tree.root().string() + "/var/lib/containers/storage/overlay-containers/";
  CHECK(has(problems, lists + "containers.json: larger than 100 bytes"));
  CHECK(has(problems, lists + "volatile-containers.json: larger than 100 bytes"));
  CHECK_FALSE(node.resolver().resolve(kPodmanWeb));
}

TEST_CASE("a list that turns malformed keeps the names it gave", "[names][broken]") {
  NamesFixture node("podman");
  REQUIRE(node.resolver().resolve(kPodmanWeb));
  node.tree.file("var/lib/containers/storage/overlay-containers/containers.json", "[{");
  node.advance(11 * kSecond);
  const auto web = node.resolver().resolve(kPodmanWeb);
  REQUIRE(web);
  CHECK_FALSE(web->gone);
  CHECK(node.resolver().take_problems().size() == 1);
}

TEST_CASE("a directory that cannot be read is a problem, not an empty source", "[names][broken]") {
  NamesFixture node("containerd");
  REQUIRE(node.resolver().resolve(kNginx));
  // What fails to list (as root too, whom no mode stops): a file where the directory was.
  node.tree.remove("var/log/containers").file("var/log/containers", "");
  node.advance(11 * kSecond);
  const auto nginx = node.resolver().resolve(kNginx);
  REQUIRE(nginx);
  CHECK(nginx->container == "nginx");
  CHECK_FALSE(nginx->gone);
  CHECK(has(node.resolver().take_problems(),
            (node.tree.root() / "var/log/containers").string() + ": Not a directory"));
}

}  // namespace
}  // namespace flightrec::container::names
