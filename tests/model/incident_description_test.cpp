#include "flightrec/model/incident_description.h"

#include <catch2/catch.hpp>
#include <cmath>

using flightrec::model::decode_incident;
using flightrec::model::encode_incident;
using flightrec::model::IncidentDescription;
using flightrec::recording::Metadata;

namespace {

constexpr int64_t kFired = 1'764'478'800'010'000'000;

IncidentDescription rule_incident() {
  return {.rule = "cpu_busy",
          .condition = "cpu_busy_ratio{cpu=\"total\"} > 0.8",
          .value = 0.9300000000000001,
          .series = "cpu_busy_ratio{cpu=\"3\"}",
          .fired_at_ns = kFired,
          .window_from_ns = kFired - 5'000'000'000,
          .window_to_ns = kFired + 1'000'000'000};
}

Metadata with_incident(const IncidentDescription& incident) {
  Metadata metadata;
  metadata.extra = {{"config.origin", "/etc/flightrec.yaml"}};
  encode_incident(incident, metadata.extra);
  return metadata;
}

}  // namespace

TEST_CASE("A rule's incident reads back exactly, value to the last bit", "[incident]") {
  const auto decoded = decode_incident(with_incident(rule_incident()));
  REQUIRE(decoded);
  CHECK(*decoded == rule_incident());
}

TEST_CASE("A manual incident keeps its reason byte for byte and its NaN value", "[incident]") {
  const std::string reason = "during the deploy of v2.3: \"canary\" & <rollback>\n\xc3\xa9\x1b[0m";
  const IncidentDescription manual{
      .rule = "manual", .reason = reason, .fired_at_ns = kFired, .window_to_ns = kFired};
  const auto decoded = decode_incident(with_incident(manual));
  REQUIRE(decoded);
  CHECK(decoded->reason == reason);
  CHECK(decoded->condition.empty());
  CHECK(std::isnan(decoded->value));
}

TEST_CASE("Metadata written before condition and reason were stored reads with both empty",
          "[incident]") {
  // The pairs incident files carried until then, in their order.
  Metadata old;
  old.extra = {{"incident.rule", "manual"},
               {"incident.value", "nan"},
               {"incident.series", ""},
               {"incident.fired_at_ns", "1764478800020000000"},
               {"incident.window_from_ns", "1764478795020000000"},
               {"incident.window_to_ns", "1764478801020000000"}};
  const auto decoded = decode_incident(old);
  REQUIRE(decoded);
  CHECK(decoded->rule == "manual");
  CHECK(decoded->kind == flightrec::model::IncidentKind::manual);  // no kind stored: inferred
  CHECK(decoded->condition.empty());
  CHECK(decoded->reason.empty());
  CHECK(std::isnan(decoded->value));
  CHECK(decoded->fired_at_ns == 1764478800020000000);
  CHECK(decoded->window_to_ns == 1764478801020000000);
}

TEST_CASE("A recording without incident pairs describes no incident", "[incident]") {
  Metadata dump;
  dump.extra = {{"dump.from", "-5m"}, {"dump.to", ""}};
  CHECK_FALSE(decode_incident(dump));
}

TEST_CASE("A number that does not parse leaves its field at the default", "[incident]") {
  Metadata metadata;
  metadata.extra = {{"incident.rule", "r"},
                    {"incident.value", "0.5x"},
                    {"incident.fired_at_ns", "soon"},
                    {"incident.window_to_ns", "12"}};
  const auto decoded = decode_incident(metadata);
  REQUIRE(decoded);
  CHECK(std::isnan(decoded->value));
  CHECK(decoded->fired_at_ns == 0);
  CHECK(decoded->window_to_ns == 12);
}

TEST_CASE("Details read back in their order, whatever their text", "[incident]") {
  IncidentDescription incident = rule_incident();
  incident.details = {{"oom.victim_pid", "468"},
                      {"oom.victim_command", "python3 = \"x\"\n"},
                      {"oom.cgroup", "/a/b"}};
  const auto decoded = decode_incident(with_incident(incident));
  REQUIRE(decoded);
  CHECK(decoded->details == incident.details);
  CHECK(*decoded == incident);
}

TEST_CASE("Every kind is stored by its name and reads back", "[incident][kind]") {
  for (const auto& [kind, name] : flightrec::model::kIncidentKinds) {
    IncidentDescription incident = rule_incident();
    incident.kind = kind;
    const Metadata metadata = with_incident(incident);
    CHECK(flightrec::recording::value_of(metadata.extra, "incident.kind") == name);
    const auto decoded = decode_incident(metadata);
    REQUIRE(decoded);
    CHECK(decoded->kind == kind);
    CHECK(*decoded == incident);
  }
}

TEST_CASE("A stored kind is read as stored, whatever the rule's name", "[incident][kind]") {
  Metadata metadata;
  metadata.extra = {{"incident.kind", "manual"}, {"incident.rule", "oom_kill"}};
  const auto decoded = decode_incident(metadata);
  REQUIRE(decoded);
  CHECK(decoded->kind == flightrec::model::IncidentKind::manual);
}

TEST_CASE("A kind this version does not know reads as a file without one", "[incident][kind]") {
  Metadata metadata;
  metadata.extra = {{"incident.kind", "container_throttled"}, {"incident.rule", "oom_kill"}};
  const auto decoded = decode_incident(metadata);
  REQUIRE(decoded);
  CHECK(decoded->kind == flightrec::model::IncidentKind::oom_kill);
  CHECK(decoded->rule == "oom_kill");
}
