#include "flightrec/config/variables.h"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <map>

#include "flightrec/config/alert_matchers.h"
#include "flightrec/config/loader.h"

using namespace flightrec::config;

namespace {

// A node of a DaemonSet: NODE_NAME from the downward API, EMPTY set to "".
Environment node_environment() {
  return [](std::string_view name) -> std::optional<std::string> {
    static const std::map<std::string, std::string, std::less<>> kVariables = {
        {"NODE_NAME", "node-1.example.com"}, {"EMPTY", ""}, {"PATTERN", "web-.*"}};
    const auto found = kVariables.find(name);
    if (found == kVariables.end()) return std::nullopt;
    return found->second;
  };
}

std::string expanded(std::string_view text, Substitution substitution = Substitution::literal) {
  auto out = expand_variables(text, node_environment(), substitution);
  if (!out) FAIL(out.error());
  return *std::move(out);
}

std::string error_of(std::string_view text) {
  auto out = expand_variables(text, node_environment(), Substitution::literal);
  REQUIRE_FALSE(out);
  return out.error();
}

AlertMatcherSet set_of(std::string_view text) {
  auto parsed = parse_alert_matchers(text, node_environment());
  if (!parsed) FAIL(parsed.error());
  return *std::move(parsed);
}

AlertLabels instance(std::string value) { return {{"instance", std::move(value)}}; }

}  // namespace

TEST_CASE("variables expand from the environment, with defaults", "[alerts]") {
  CHECK(expanded("${NODE_NAME}") == "node-1.example.com");
  CHECK(expanded("host ${NODE_NAME}:9100") == "host node-1.example.com:9100");
  CHECK(expanded("${UNSET_HERE:-fallback}") == "fallback");
  CHECK(expanded("${EMPTY:-fallback}") == "fallback");  // empty takes the default, as in a shell
  CHECK(expanded("${NODE_NAME:-fallback}") == "node-1.example.com");
  CHECK(expanded("${UNSET_HERE:-}").empty());  // empty, said on purpose
  // A `$` that starts no reference stays: it is the regex anchor.
  CHECK(expanded("a$|b$$") == "a$|b$$");
  CHECK(expanded("$${NODE_NAME}") == "${NODE_NAME}");
}

TEST_CASE("a variable's value is a literal in a regex", "[alerts]") {
  CHECK(expanded("${NODE_NAME}(:[0-9]+)?", Substitution::regex_literal) ==
        "node\\-1\\.example\\.com(:[0-9]+)?");
  CHECK(expanded("${PATTERN}", Substitution::regex_literal) == "web\\-\\.\\*");
  CHECK(expanded("${UNSET_HERE:-a.b}", Substitution::regex_literal) == "a\\.b");
}

TEST_CASE("an unset or malformed variable is an error naming it", "[alerts]") {
  CHECK(error_of("${NODE}") == "${NODE} is not set (set it, or give a default: ${NODE:-value})");
  CHECK(error_of("x${EMPTY}") == "${EMPTY} is empty (set it, or give a default: ${EMPTY:-value})");
  CHECK(error_of("${NODE_NAME") ==
        "${ is not closed (write ${NAME}, or $${ for a literal ${; a value holding ${ must be "
        "quoted)");
  CHECK(error_of("${1X}") ==
        "${1X}: expected a variable name (letters, digits, _; not a digit first)");
  CHECK(error_of("${NODE_NAME:=x}") ==
        "${NODE_NAME:=x}: expected } or :-default after the name NODE_NAME");
}

TEST_CASE("a matcher names this host through a variable", "[alerts]") {
  const AlertMatcherSet host = set_of("{instance=~\"${NODE_NAME}(:[0-9]+)?\"}");
  CHECK(matches_all(host, instance("node-1.example.com:9100")));
  CHECK(matches_all(host, instance("node-1.example.com")));
  // The dots match only dots, and the name must be whole.
  CHECK_FALSE(matches_all(host, instance("node-1Xexample.com:9100")));
  CHECK_FALSE(matches_all(host, instance("node-10.example.com:9100")));
  CHECK_FALSE(matches_all(host, instance("node-2.example.com:9100")));
  // `=` compares the value as it is.
  const AlertMatcherSet equal = set_of("{instance=\"${PATTERN}\"}");
  CHECK(matches_all(equal, instance("web-.*")));
  CHECK_FALSE(matches_all(equal, instance("web-1")));
  const auto unset =
      parse_alert_matchers("{severity=critical, instance=~\"${NODE}\"}", node_environment());
  REQUIRE_FALSE(unset);
  CHECK(unset.error() ==
        "instance: ${NODE} is not set (set it, or give a default: ${NODE:-value})");
}

TEST_CASE("incidents.alerts.match expands at load, an unset variable naming the key", "[alerts]") {
  const std::string yaml =
      "incidents:\n  alerts:\n    match: ['{instance=~\"${FLIGHTREC_TEST_HOST}(:[0-9]+)?\"}']\n";
  ::unsetenv("FLIGHTREC_TEST_HOST");
  const LoadResult bad = load_from_string(yaml, "test.yaml");
  REQUIRE(bad.errors.size() == 1);
  INFO(bad.errors[0]);
  CHECK(bad.errors[0].find("incidents.alerts.match") != std::string::npos);
  CHECK(bad.errors[0].find("instance: ${FLIGHTREC_TEST_HOST} is not set") != std::string::npos);
  ::setenv("FLIGHTREC_TEST_HOST", "node-1", 1);
  const LoadResult good = load_from_string(yaml, "test.yaml");
  ::unsetenv("FLIGHTREC_TEST_HOST");
  REQUIRE(good.ok());
  // The config keeps the text as written: check-config and a reload show the variable.
  CHECK(good.config->incidents.alerts.match ==
        std::vector<std::string>{"{instance=~\"${FLIGHTREC_TEST_HOST}(:[0-9]+)?\"}"});
}
