#include "flightrec/trigger/alert_payload.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "support/temp_dir.h"

using namespace flightrec;
using namespace flightrec::trigger;

namespace {

std::string fixture(const std::string& name) {
  std::ifstream file(flightrec::testing::fixture_path("alerts/" + name));
  REQUIRE(file);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

AlertNotification parsed(AlertSource source, const std::string& body) {
  auto result = parse_alert_payload(source, body);
  if (!result) FAIL(result.error());
  return *std::move(result);
}

std::string error_of(AlertSource source, const std::string& body) {
  auto result = parse_alert_payload(source, body);
  REQUIRE_FALSE(result);
  return result.error();
}

}  // namespace

TEST_CASE("an Alertmanager notification reads whole", "[alerts]") {
  const AlertNotification n =
      parsed(AlertSource::alertmanager, fixture("alertmanager_firing.json"));
  CHECK(n.firing);
  CHECK(n.receiver == "flightrec");
  CHECK(n.group_key == "{}:{alertname=\"HighLoad\"}");
  REQUIRE(n.alerts.size() == 2);
  const Alert& a = n.alerts[0];
  CHECK(a.firing);
  CHECK(a.labels == config::AlertLabels{{"alertname", "HighLoad"},
                                        {"instance", "web-1:9717"},
                                        {"severity", "critical"}});
  CHECK(a.annotations ==
        config::AlertLabels{{"description", "web-1 is busy"}, {"summary", "load above 4"}});
  CHECK(a.starts_at_ns == 1'796'180'645'123'456'789);
  CHECK_FALSE(a.ends_at_ns);  // Go's zero time
  CHECK(a.fingerprint == "5d1e8c0a4b7f2e31");
  CHECK(a.generator_url == "http://prometheus.example:9090/graph?g0.expr=load1+%3E+4");
  CHECK(n.alerts[1].starts_at_ns == 1'796'180'645'000'000'000);  // +01:00 offset
  CHECK(n.alerts[1].ends_at_ns == 1'796'181'000'000'000'000);
}

TEST_CASE("a resolved notification carries the end", "[alerts]") {
  const AlertNotification n =
      parsed(AlertSource::alertmanager, fixture("alertmanager_resolved.json"));
  CHECK_FALSE(n.firing);
  REQUIRE(n.alerts.size() == 1);
  CHECK_FALSE(n.alerts[0].firing);
  CHECK(n.alerts[0].ends_at_ns == 1'796'180'940'500'000'000);
}

TEST_CASE("a Grafana notification reads with its extras", "[alerts]") {
  const AlertNotification n = parsed(AlertSource::grafana, fixture("grafana_firing.json"));
  CHECK(n.title == "[FIRING:1] DiskFull (hosts)");
  REQUIRE(n.alerts.size() == 1);
  const Alert& a = n.alerts[0];
  CHECK(a.fingerprint == "c6eb3ba7e2d4f8a1");
  CHECK(a.dashboard_url == "http://grafana.example/d/xyz");
  CHECK(a.panel_url == "http://grafana.example/d/xyz?viewPanel=2");
  CHECK(a.silence_url ==
        "http://grafana.example/alerting/silence/new?matcher=alertname%3DDiskFull");
  CHECK(a.value_string == "[ var='B' labels={instance=web-1} value=97.5 ]");
  // The two senders' versions differ: each route takes only its own.
  CHECK(error_of(AlertSource::alertmanager, fixture("grafana_firing.json")) ==
        "version: \"1\" is not alertmanager's webhook version \"4\"");
  CHECK(error_of(AlertSource::grafana, fixture("alertmanager_firing.json")) ==
        "version: \"4\" is not grafana's webhook version \"1\"");
}

TEST_CASE("a bad payload is refused naming the field", "[alerts]") {
  for (const char* name : {"starts_at", "version", "label_type", "no_fingerprint", "status",
                           "alerts_type", "ends_at"}) {
    INFO(name);
    std::string expected = fixture(std::string("bad_") + name + ".error");
    expected.pop_back();  // the file's newline
    CHECK(error_of(AlertSource::alertmanager, fixture(std::string("bad_") + name + ".json")) ==
          expected);
  }
  CHECK(error_of(AlertSource::alertmanager, "[]") == "body: expected a JSON object, got array");
  CHECK(error_of(AlertSource::alertmanager, "{\"version\": \"4\"").starts_with("body: not JSON"));
  CHECK(error_of(AlertSource::grafana,
                 "{\"version\": \"1\", \"status\": \"firing\", \"orgId\": "
                 "\"one\", \"alerts\": []}") == "orgId: expected an integer, got string");
  const std::string deep(100, '[');
  CHECK(error_of(AlertSource::alertmanager, deep) == "body: nested deeper than 16 levels");
  // A time RFC 3339 can write but no alert started at: before 1970.
  std::string before_1970 = fixture("alertmanager_firing.json");
  const std::string starts = "2026-12-02T03:04:05.123456789Z";
  before_1970.replace(before_1970.find(starts), starts.size(), "1969-12-31T23:59:59Z");
  CHECK(error_of(AlertSource::alertmanager, before_1970) ==
        "alerts[0].startsAt: \"1969-12-31T23:59:59Z\" is before 1970");
  // Valid RFC 3339 that int64 nanoseconds cannot hold: said to be out of range, not malformed.
  for (const char* far : {"9999-12-31T23:59:59Z", "2026-12-02T03:04:05.1234567891Z"}) {
    std::string beyond = fixture("alertmanager_firing.json");
    beyond.replace(beyond.find(starts), starts.size(), far);
    INFO(far);
    CHECK_THAT(error_of(AlertSource::alertmanager, beyond),
               Catch::Matchers::StartsWith("alerts[0].startsAt: \"" + std::string(far) +
                                           "\" is not a time (") &&
                   Catch::Matchers::Contains("out of range"));
  }
}
