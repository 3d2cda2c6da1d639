#include "flightrec/trigger/alert_receiver.h"

#include <catch2/catch.hpp>

#include "flightrec/store/ring.h"

using namespace flightrec;
using namespace flightrec::trigger;
using namespace std::chrono_literals;

namespace {

constexpr int64_t kStart = 1'796'180'645'000'000'000;

Alert alert(std::string fingerprint, bool firing = true) {
  Alert a;
  a.firing = firing;
  a.labels = {{"alertname", "HighLoad"}, {"instance", "web-1"}, {"severity", "critical"}};
  a.annotations = {{"summary", "load above 4"}};
  a.starts_at_ns = kStart;
  if (!firing) a.ends_at_ns = kStart + 300'000'000'000;
  a.fingerprint = std::move(fingerprint);
  a.generator_url = "http://prometheus/graph";
  return a;
}

AlertNotification notification(std::vector<Alert> alerts) {
  return AlertNotification{.source = AlertSource::alertmanager,
                           .receiver = "flightrec",
                           .group_key = "{}:{alertname=\"HighLoad\"}",
                           .alerts = std::move(alerts)};
}

std::string detail(const model::IncidentDescription& incident, std::string_view key) {
  for (const auto& [name, value] : incident.details) {
    if (name == key) return value;
  }
  return "(none)";
}

std::vector<IncidentCapture> taken(AlertReceiver& receiver) {
  std::vector<IncidentCapture> out;
  if (receiver.waiting()) receiver.take(out);
  return out;
}

}  // namespace

TEST_CASE("repeats, retries and regrouping make one incident per episode", "[alerts]") {
  AlertReceiver receiver({.pre = 30s, .post = 10s});
  using O = AlertOutcome;
  CHECK(receiver.receive(notification({alert("a"), alert("b")})) ==
        std::vector<O>{O::captured, O::captured});
  // A retry of the same notification, a repeat_interval re-send, and "a" in another group.
  CHECK(receiver.receive(notification({alert("a"), alert("b")})) ==
        std::vector<O>{O::duplicate, O::duplicate});
  CHECK(receiver.receive(notification({alert("a")})) == std::vector<O>{O::duplicate});
  // The same alert firing again later is a new episode.
  Alert again = alert("a");
  again.starts_at_ns += 3'600'000'000'000;
  CHECK(receiver.receive(notification({again})) == std::vector<O>{O::captured});
  const auto captures = taken(receiver);
  REQUIRE(captures.size() == 3);
  CHECK_FALSE(receiver.waiting());
  const model::IncidentDescription& c = captures[0].description;
  CHECK(c.rule == "alert");
  CHECK(c.series == "HighLoad{instance=\"web-1\",severity=\"critical\"}");
  CHECK(c.reason == "load above 4");
  CHECK(c.fired_at_ns == kStart);
  CHECK(c.window_from_ns == kStart - 30'000'000'000);
  CHECK(c.window_to_ns == kStart + 10'000'000'000);
  CHECK(detail(c, "alert.fingerprint") == "a");
  CHECK(detail(c, "alert.status") == "firing");
  CHECK(detail(c, "alert.starts_at") == "2026-12-02T03:04:05.000Z");
  CHECK(detail(c, "alert.label.severity") == "critical");
  CHECK(detail(c, "alert.annotation.summary") == "load above 4");
  CHECK(detail(c, "alert.generator_url") == "http://prometheus/graph");
  CHECK(receiver.outcomes(O::captured) == 3);
  CHECK(receiver.outcomes(O::duplicate) == 3);
}

TEST_CASE("a resolved notification records the end on a waiting incident", "[alerts]") {
  AlertReceiver receiver({});
  store::Ring ring(store::RingOptions{.series = 1, .rate = 1ms});
  using O = AlertOutcome;
  CHECK(receiver.receive(notification({alert("a")})) == std::vector<O>{O::captured});
  auto captures = taken(receiver);
  REQUIRE(captures.size() == 1);
  CHECK(receiver.receive(notification({alert("a", false)})) == std::vector<O>{O::resolved});
  CHECK(receiver.receive(notification({alert("a", false)})) == std::vector<O>{O::duplicate});
  receiver.complete(captures[0], ring.snapshot());
  CHECK(detail(captures[0].description, "alert.status") == "resolved");
  CHECK(detail(captures[0].description, "alert.ends_at") == "2026-12-02T03:09:05.000Z");
  // The ring holds nothing: the whole wanted window is said to be held from its start.
  CHECK(detail(captures[0].description, "alert.window_held_from") == "2026-12-02T03:03:05.000Z");
  // Written now, and nothing to rewrite the file (no hand_revisions_to): a later end cannot be
  // recorded (alert_end_test.cpp has the receiver that can).
  Alert later = alert("b");
  CHECK(receiver.receive(notification({later})) == std::vector<O>{O::captured});
  captures = taken(receiver);
  receiver.complete(captures[0], ring.snapshot());
  CHECK(receiver.receive(notification({alert("b", false)})) == std::vector<O>{O::end_too_late});
}

TEST_CASE("the filter decides which alerts capture", "[alerts]") {
  AlertReceiverOptions options;
  options.match.push_back(std::get<config::AlertMatcherSet>(
      config::parse_alert_matchers("{severity=\"critical\", instance=~\"db-.*\"}")));
  AlertReceiver receiver(std::move(options));
  Alert db = alert("db");
  db.labels = {{"alertname", "X"}, {"instance", "db-1"}, {"severity", "critical"}};
  using O = AlertOutcome;
  CHECK(receiver.receive(notification({alert("web"), db})) ==
        std::vector<O>{O::filtered, O::captured});
  CHECK(receiver.outcomes(O::filtered) == 1);
}

TEST_CASE("the episodes remembered are bounded", "[alerts]") {
  AlertReceiver receiver({.max_episodes = 2});
  using O = AlertOutcome;
  static_cast<void>(receiver.receive(notification({alert("a"), alert("b"), alert("c")})));
  CHECK(receiver.episodes() == 2);
  // "a" was forgotten first: it captures again.
  CHECK(receiver.receive(notification({alert("a")})) == std::vector<O>{O::captured});
}

TEST_CASE("an episode stored before a restart is not captured again", "[alerts]") {
  // The previous run's receiver: the description it captured is what the store keeps on disk.
  AlertReceiver before({});
  static_cast<void>(before.receive(notification({alert("a")})));
  const auto stored = taken(before);
  REQUIRE(stored.size() == 1);
  const std::string stored_key = episode_key(stored[0].description);
  CHECK(stored_key == episode_key(AlertSource::alertmanager, "a", kStart));
  model::IncidentDescription other_rule = stored[0].description;
  other_rule.rule = "cpu";
  CHECK(episode_key(other_rule).empty());

  std::vector<std::string> asked;
  AlertReceiver after({}, [&](const std::string& key) {
    asked.push_back(key);
    return key == stored_key;
  });
  using O = AlertOutcome;
  CHECK(after.receive(notification({alert("a"), alert("b")})) ==
        std::vector<O>{O::duplicate, O::captured});
  CHECK(after.receive(notification({alert("a", false)})) == std::vector<O>{O::end_too_late});
  // Each episode the receiver did not remember was looked up once; after that it remembers.
  CHECK(asked ==
        std::vector<std::string>{stored_key, episode_key(AlertSource::alertmanager, "b", kStart)});
  CHECK(taken(after).size() == 1);
}
