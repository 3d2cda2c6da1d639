#include "flightrec/http/router.h"

#include <catch2/catch.hpp>
#include <stdexcept>
#include <string>

using namespace flightrec::http;

namespace {

Route route(std::string path) {
  return {.path = std::move(path), .handler = [](const Request&, Response&) {}};
}

// The pattern of the route that answers `path`, or "404".
std::string winner(const Router& router, std::string_view path) {
  const auto found = router.match(path);
  return found.route == nullptr ? "404" : found.route->path;
}

Router daemon_like_router() {
  Router router;
  // Added least specific first: the order of registration must not matter.
  router.add(route("/incidents/{id...}"));
  router.add(route("/incidents/{id}"));
  router.add(route("/incidents/{id}/view"));
  router.add(route("/incidents"));
  router.add(route("/incidents/latest"));
  router.add(route("/"));
  return router;
}

}  // namespace

TEST_CASE("shouldPreferAnExactPathToAnyPattern", "[http][router]") {
  const Router router = daemon_like_router();
  CHECK(winner(router, "/incidents") == "/incidents");
  CHECK(winner(router, "/incidents/latest") == "/incidents/latest");
  CHECK(winner(router, "/") == "/");
}

TEST_CASE("shouldPreferTheLongerPatternThenTheParameterThenThePrefix", "[http][router]") {
  const Router router = daemon_like_router();
  CHECK(winner(router, "/incidents/x/view") == "/incidents/{id}/view");
  CHECK(winner(router, "/incidents/x") == "/incidents/{id}");
  CHECK(winner(router, "/incidents/x/other") == "/incidents/{id...}");
  CHECK(winner(router, "/incidents/x/view/more") == "/incidents/{id...}");
}

TEST_CASE("shouldPreferALiteralAtTheFirstSegmentWherePatternsDiffer", "[http][router]") {
  Router router;
  router.add(route("/{kind}/b"));
  router.add(route("/a/{name}"));
  CHECK(winner(router, "/a/b") == "/a/{name}");
  CHECK(winner(router, "/z/b") == "/{kind}/b");
}

TEST_CASE("shouldPreferTheLongestLiteralStartAmongPrefixes", "[http][router]") {
  Router router;
  router.add(route("/a/{rest...}"));
  router.add(route("/a/b/{rest...}"));
  CHECK(winner(router, "/a/b/c") == "/a/b/{rest...}");
  CHECK(winner(router, "/a/c/d") == "/a/{rest...}");
}

TEST_CASE("shouldReadThePathValuesOfTheMatchedPattern", "[http][router]") {
  const Router router = daemon_like_router();
  const auto view = router.match("/incidents/2026-x/view");
  REQUIRE(view.values.size() == 1);
  CHECK(view.values[0].first == "id");
  CHECK(view.values[0].second == "2026-x");
  const auto rest = router.match("/incidents/a/b");
  REQUIRE(rest.values.size() == 1);
  CHECK(rest.values[0].second == "a/b");
}

TEST_CASE("shouldMatchNoRouteForEmptySegmentsTrailingSlashesOrLookAlikes", "[http][router]") {
  const Router router = daemon_like_router();
  CHECK(winner(router, "/incidents/") == "404");  // {id} and {id...} need a non-empty value
  // An empty segment is no {id}: only the prefix form takes "/incidents//view".
  CHECK(winner(router, "/incidents//view") == "/incidents/{id...}");
  CHECK(winner(router, "/incidentsx") == "404");
  CHECK(winner(router, "/incidents/latest/") == "/incidents/{id...}");
  CHECK(winner(router, "") == "404");
  CHECK(winner(Router{}, "/") == "404");
}

TEST_CASE("shouldRefuseMalformedPatternsAndPatternsThatOverlapExactly", "[http][router]") {
  Router router;
  router.add(route("/incidents/{id}"));
  CHECK_THROWS_AS(router.add(route("/incidents/{name}")), std::invalid_argument);
  CHECK_THROWS_AS(router.add(route("incidents")), std::invalid_argument);
  CHECK_THROWS_AS(router.add(route("/a/{rest...}/b")), std::invalid_argument);
  CHECK_THROWS_AS(router.add(route("/a/{}")), std::invalid_argument);
  CHECK_THROWS_AS(router.add(route("/a/{b")), std::invalid_argument);
  CHECK_THROWS_AS(router.add(route("/a/x{b}")), std::invalid_argument);
  CHECK_NOTHROW(router.add(route("/incidents/{id...}")));
}
