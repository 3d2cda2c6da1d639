#include "flightrec/model/incident_kind.h"

#include <catch2/catch.hpp>
#include <set>
#include <string>

#include "flightrec/model/incident_description.h"

using flightrec::model::IncidentDescription;
using flightrec::model::IncidentKind;
using flightrec::model::kIncidentKinds;
using flightrec::model::kind_name;
using flightrec::model::kind_named;

TEST_CASE("Each kind has one name, and each name one kind", "[kind]") {
  std::set<std::string_view> names;
  for (const auto& [kind, name] : kIncidentKinds) {
    CHECK(names.insert(name).second);
    CHECK(kind_name(kind) == name);
    CHECK(kind_named(name) == kind);
  }
  CHECK(names == std::set<std::string_view>{"rule", "manual", "alert", "oom_kill", "container"});
  CHECK_FALSE(kind_named("Manual"));
  CHECK_FALSE(kind_named(""));
}

namespace {

IncidentKind inferred_kind(std::string rule, flightrec::recording::Labels details) {
  return flightrec::model::inferred_kind(
      IncidentDescription{.rule = std::move(rule), .details = std::move(details)});
}

}  // namespace

TEST_CASE("A file without a kind is read as the kind its rule name and details stood for",
          "[kind]") {
  CHECK(inferred_kind("manual", {}) == IncidentKind::manual);
  CHECK(inferred_kind("oom_kill", {{"oom.victim_pid", "468"}}) == IncidentKind::oom_kill);
  CHECK(inferred_kind("oom_kill", {}) == IncidentKind::oom_kill);
  CHECK(inferred_kind("alert", {{"alert.source", "alertmanager"}, {"alert.status", "firing"}}) ==
        IncidentKind::alert);
  CHECK(inferred_kind("cpu_busy", {}) == IncidentKind::rule);
  // Before "alert" was reserved a rule could be named so: without alert details it was a rule.
  CHECK(inferred_kind("alert", {}) == IncidentKind::rule);
  CHECK(inferred_kind("alert", {{"alerted", "yes"}}) == IncidentKind::rule);
}
