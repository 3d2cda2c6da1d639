#include "flightrec/trigger/builtin_rules.h"

#include <catch2/catch.hpp>

#include "flightrec/config/loader.h"

using flightrec::config::Config;
using flightrec::model::IncidentKind;
using flightrec::trigger::incident_kind_of;
using flightrec::trigger::kOomKillRule;
using flightrec::trigger::rules_with_builtins;

namespace {

Config loaded(const std::string& yaml) {
  auto result = flightrec::config::load_from_string(yaml, "test.yaml");
  REQUIRE(result.config);
  return *result.config;
}

}  // namespace

TEST_CASE("The oom_kill rule runs by default, after the configured rules", "[trigger][builtin]") {
  const auto rules = rules_with_builtins(loaded("thresholds:\n  cpu_percent: 90\n"));
  REQUIRE(rules.size() == 2);
  CHECK(rules[0].name == "cpu_percent");
  const auto& oom = rules[1];
  CHECK(oom.name == kOomKillRule);
  CHECK(oom.signal == "oom_kills_per_second");
  CHECK(oom.selector.name == "oom_kills_per_second");
  CHECK(oom.op == flightrec::config::Comparison::greater);
  CHECK(oom.value == 0);
  CHECK_FALSE(oom.pre.has_value());  // the whole buffer before the kill
  CHECK(oom.post == std::chrono::seconds(5));
  CHECK(oom.cooldown == oom.post);  // a later kill is either in the recording or fires its own
}

TEST_CASE("A rule named oom_kill replaces the built-in one", "[trigger][builtin]") {
  const auto rules = rules_with_builtins(loaded(R"(triggers:
  - name: oom_kill
    signal: oom_kills_per_second
    op: ">"
    value: 0
    pre: 30s
    cooldown: 1m
)"));
  REQUIRE(rules.size() == 1);
  CHECK(rules[0].pre == std::chrono::seconds(30));
  CHECK(rules[0].cooldown == std::chrono::minutes(1));
  // It takes the built-in's place: its incidents are OOM kills, their victims named.
  CHECK(incident_kind_of(rules[0]) == IncidentKind::oom_kill);
}

TEST_CASE("The built-in rule fires oom_kill incidents, every other rule rule incidents",
          "[trigger][builtin]") {
  const auto rules = rules_with_builtins(loaded("thresholds:\n  cpu_percent: 90\n"));
  REQUIRE(rules.size() == 2);
  CHECK(incident_kind_of(rules[0]) == IncidentKind::rule);
  CHECK(incident_kind_of(rules[1]) == IncidentKind::oom_kill);
}

TEST_CASE("No oom_kill rule when it is turned off or vmstat is not read", "[trigger][builtin]") {
  CHECK(rules_with_builtins(loaded("incidents:\n  capture_oom_kills: false\n")).empty());
  CHECK(rules_with_builtins(loaded("sources:\n  vmstat:\n    enabled: false\n")).empty());
}

TEST_CASE("Container rules are left to the container tier, not the frames' engine",
          "[trigger][builtin]") {
  const auto rules = rules_with_builtins(loaded(R"(triggers:
  - name: near-limit
    signal: container_memory_fill
    op: ">"
    value: 0.9
thresholds:
  cpu_percent: 90
)"));
  REQUIRE(rules.size() == 2);
  CHECK(rules[0].name == "cpu_percent");
  CHECK(rules[1].name == kOomKillRule);
}
