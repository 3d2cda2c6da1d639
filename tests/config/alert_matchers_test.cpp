#include "flightrec/config/alert_matchers.h"

#include <catch2/catch.hpp>

#include "flightrec/config/loader.h"

using namespace flightrec::config;

namespace {

AlertMatcherSet set_of(std::string_view text) {
  auto parsed = parse_alert_matchers(text);
  if (!parsed) FAIL(parsed.error());
  return *std::move(parsed);
}

std::string error_of(std::string_view text) {
  auto parsed = parse_alert_matchers(text);
  REQUIRE_FALSE(parsed);
  return parsed.error();
}

const AlertLabels kWeb = {
    {"alertname", "HighLoad"}, {"instance", "web-12"}, {"severity", "critical"}};

}  // namespace

TEST_CASE("matchers read in Alertmanager's syntax", "[alerts]") {
  const AlertMatcherSet set =
      set_of("{severity=\"critical\", instance=~\"web-.*\", team!=db, x!~\"a|b\"}");
  REQUIRE(set.size() == 4);
  CHECK(set[0].name == "severity");
  CHECK(set[0].op == MatchOp::equal);
  CHECK(set[1].op == MatchOp::regex);
  CHECK(set[2].op == MatchOp::not_equal);
  CHECK(set[2].value == "db");
  CHECK(set[3].op == MatchOp::not_regex);
  CHECK(set_of("severity=\"crit\\\"ical\"")[0].value == "crit\"ical");
}

TEST_CASE("each operator reads back from the spelling messages print it with", "[alerts]") {
  for (const auto& [op, text] : kMatchOps) {
    INFO(text);
    const AlertMatcherSet set = set_of("a" + std::string(text) + "\"x\"");
    REQUIRE(set.size() == 1);
    CHECK(set[0].op == op);
  }
}

TEST_CASE("matchers hold as Alertmanager's do", "[alerts]") {
  CHECK(matches_all(set_of("{severity=\"critical\", instance=~\"web-.*\"}"), kWeb));
  CHECK_FALSE(matches_all(set_of("{severity=\"critical\", instance=~\"db-.*\"}"), kWeb));
  // Anchored: "web" alone does not match "web-12".
  CHECK_FALSE(matches_all(set_of("instance=~\"web\""), kWeb));
  CHECK(matches_all(set_of("instance!~\"web\""), kWeb));
  // A missing label reads as "".
  CHECK(matches_all(set_of("team=\"\""), kWeb));
  CHECK_FALSE(matches_all(set_of("team=~\".+\""), kWeb));
  CHECK(matches_all(set_of("team!=\"db\""), kWeb));
  // Sets are ORed; no sets: everything passes.
  CHECK(passes_filter({set_of("severity=\"warning\""), set_of("alertname=\"HighLoad\"")}, kWeb));
  CHECK_FALSE(passes_filter({set_of("severity=\"warning\"")}, kWeb));
  CHECK(passes_filter({}, kWeb));
}

TEST_CASE("a bad matcher says what is wrong", "[alerts]") {
  CHECK(error_of("{severity=~\"(\"}") == "severity=~\"(\": not a valid regex (missing ): ^(?:()$)");
  CHECK(error_of("{severity==\"x\"}") == "severity: a value holding \", =, ~ or ! must be quoted");
  CHECK(error_of("{a=\"b\" c=\"d\"}") == "expected , or } after a matcher");
  CHECK(error_of("{9lives=\"x\"}") == "expected a label name (letters, digits, _)");
  CHECK(error_of("{severity~\"x\"}") == "severity: expected one of =, !=, =~, !~");
  CHECK(error_of("{severity=\"x}") == "severity: a quoted value is not closed");
  CHECK(error_of("{}") == "no matchers (write at least one, e.g. severity=\"critical\")");
  CHECK(error_of("{a=\"b\"} c") == "unexpected text after the matchers");
}

TEST_CASE("incidents.alerts.match is checked at load, naming the key", "[alerts]") {
  const LoadResult bad = load_from_string(
      "incidents:\n  alerts:\n    match: ['{severity=\"critical\"}', '{instance=~\"(\"}']\n",
      "test.yaml");
  REQUIRE(bad.errors.size() == 1);
  INFO(bad.errors[0]);
  CHECK(bad.errors[0].find("incidents.alerts.match") != std::string::npos);
  CHECK(bad.errors[0].find("set 2 \"{instance=~\\\"(\\\"}\": instance=~\"(\": not a valid regex") !=
        std::string::npos);
  const LoadResult good = load_from_string(
      "incidents:\n  alerts:\n    match: ['{severity=\"critical\"}']\n", "test.yaml");
  REQUIRE(good.ok());
  CHECK(good.config->incidents.alerts.match == std::vector<std::string>{"{severity=\"critical\"}"});
}

TEST_CASE("incidents.alerts.max_extension is bounded, naming the key", "[alerts]") {
  const LoadResult bad =
      load_from_string("incidents:\n  alerts:\n    max_extension: 2h\n", "test.yaml");
  REQUIRE(bad.errors.size() == 1);
  INFO(bad.errors[0]);
  CHECK(bad.errors[0].find("incidents.alerts.max_extension") != std::string::npos);
  CHECK(bad.errors[0].find("2h") != std::string::npos);
  const LoadResult off =
      load_from_string("incidents:\n  alerts:\n    max_extension: 0s\n", "test.yaml");
  REQUIRE(off.ok());
  CHECK(off.config->incidents.alerts.max_extension == std::chrono::seconds(0));
  CHECK(Config{}.incidents.alerts.max_extension == std::chrono::minutes(5));
}
