#include "flightrec/trigger/alert_receiver.h"

#include <catch2/catch.hpp>
#include <ctime>

#include "flightrec/common/clock.h"
#include "flightrec/store/ring.h"
#include "flightrec/trigger/writer.h"

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

// One frame a second from `from_ns` to `to_ns`, on tick `from_ns` / 1 s.
void record(store::Ring& ring, int64_t from_ns, int64_t to_ns) {
  constexpr int64_t kSecond = 1'000'000'000;
  const std::vector<int64_t> values{1};
  for (int64_t at = from_ns; at <= to_ns; at += kSecond) {
    const sampler::FrameHeader header{
        .tick = static_cast<uint64_t>(at / kSecond), .mono_ns = at - kStart, .real_ns = at};
    REQUIRE(ring.append(header, values));
  }
}

std::vector<model::IncidentCapture> taken(AlertReceiver& receiver) {
  std::vector<model::IncidentCapture> out;
  if (receiver.waiting()) receiver.take(out);
  return out;
}

// A sink that writes nothing and fails every write while `broken`, as a full or read-only store
// does. Set between writers only: each writer's thread starts after it and is joined before.
struct BreakableSink final : model::IncidentSink {
  bool broken = false;
  model::WriteOutcome write(const model::IncidentCapture&, store::Snapshot) override {
    return broken ? model::WriteOutcome::failed : model::WriteOutcome::written;
  }
};

// Hands what the receiver has queued to the writer, as the capturer does once the window is over.
void write_taken(AlertReceiver& receiver, IncidentWriter& writer) {
  const store::Ring ring(store::RingOptions{.series = 1, .rate = 1ms});
  for (model::IncidentCapture& capture : taken(receiver)) {
    receiver.complete(capture, ring.snapshot());
    const bool submitted = writer.submit(std::move(capture), store::Snapshot{});
    REQUIRE(submitted);
  }
}

// alert.window_held_from of an incident for alert() with a window of [S - 30s, S + 10s], completed
// over `ring`.
std::string held_from(const store::Ring& ring) {
  AlertReceiver receiver({.pre = 30s, .post = 10s});
  static_cast<void>(receiver.receive(notification({alert("a")})));
  auto captures = taken(receiver);
  REQUIRE(captures.size() == 1);
  receiver.complete(captures[0], ring.snapshot());
  return detail(captures[0].description, "alert.window_held_from");
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
  // The ring holds nothing, so none of the wanted window was held.
  CHECK(detail(captures[0].description, "alert.window_held_from") == "none");
  // Written now, and nothing to rewrite the file (no hand_revisions_to): a later end cannot be
  // recorded (alert_end_test.cpp has the receiver that can).
  Alert later = alert("b");
  CHECK(receiver.receive(notification({later})) == std::vector<O>{O::captured});
  captures = taken(receiver);
  receiver.complete(captures[0], ring.snapshot());
  CHECK(receiver.receive(notification({alert("b", false)})) == std::vector<O>{O::end_too_late});
}

TEST_CASE("the incident says where the part of its window the ring held begins", "[alerts]") {
  constexpr int64_t kS = 1'000'000'000;
  // Sealed every 4 frames, so that the first block is sealed after 4 s.
  const store::RingOptions sealing{.series = 1, .rate = 1s, .block_frames = 4, .seal_after = 1h};
  SECTION("a ring reaching back before the window holds all of it") {
    store::Ring ring(sealing);
    record(ring, kStart - 60 * kS, kStart + 10 * kS);
    CHECK(held_from(ring) == "2026-12-02T03:03:35.000Z");  // window.from
  }
  SECTION("a ring that began within the window holds it from its oldest frame") {
    store::Ring ring(sealing);
    record(ring, kStart - 12 * kS, kStart + 10 * kS);
    CHECK(held_from(ring) == "2026-12-02T03:03:53.000Z");
  }
  SECTION("before the first block is sealed, the open frames are what the ring holds") {
    store::Ring ring(store::RingOptions{.series = 1, .rate = 1s, .seal_after = 1h});
    record(ring, kStart - 5 * kS, kStart + 10 * kS);
    REQUIRE(ring.snapshot().sealed().empty());
    CHECK(held_from(ring) == "2026-12-02T03:04:00.000Z");
  }
  SECTION("a ring that began after the window ended holds none of it") {
    // An alert that started long before this run: held_from would lie past window.to.
    store::Ring ring(sealing);
    record(ring, kStart + 20 * kS, kStart + 30 * kS);
    CHECK(held_from(ring) == "none");
  }
  SECTION("an empty ring holds none of it") {
    const store::Ring ring(sealing);
    CHECK(held_from(ring) == "none");
  }
}

TEST_CASE("a startsAt far ahead of this host's clock is centred on the receipt", "[alerts]") {
  using O = AlertOutcome;
  AlertReceiver receiver({.pre = 30s, .post = 10s});
  constexpr int64_t k2100 = 4'102'444'800'000'000'000;  // 2100-01-01T00:00:00Z
  Alert far = alert("far");
  far.starts_at_ns = k2100;
  // Clocks a little apart: still centred on startsAt.
  Alert near = alert("near");
  near.starts_at_ns = clock_ns(CLOCK_REALTIME) + 60'000'000'000;
  const int64_t before_ns = clock_ns(CLOCK_REALTIME);
  CHECK(receiver.receive(notification({far, near})) == std::vector<O>{O::captured, O::captured});
  const int64_t after_ns = clock_ns(CLOCK_REALTIME);
  const auto captures = taken(receiver);
  REQUIRE(captures.size() == 2);
  const model::IncidentDescription& c = captures[0].description;
  CHECK(c.fired_at_ns >= before_ns);
  CHECK(c.fired_at_ns <= after_ns);
  CHECK(c.window_from_ns == c.fired_at_ns - 30'000'000'000);
  CHECK(c.window_to_ns == c.fired_at_ns + 10'000'000'000);
  CHECK(detail(c, "alert.starts_at") == "2100-01-01T00:00:00.000Z");
  CHECK(detail(c, "alert.sent_starts_at_ns") == "4102444800000000000");
  // The episode is still the one the sender names, so its re-sends are duplicates, also after a
  // restart (found among the stored incidents), and its end finds the incident.
  CHECK(episode_key(c) == episode_key(AlertSource::alertmanager, "far", k2100));
  CHECK(receiver.receive(notification({far})) == std::vector<O>{O::duplicate});
  AlertReceiver after_restart({}, [&](const std::string& key) { return key == episode_key(c); });
  CHECK(after_restart.receive(notification({far})) == std::vector<O>{O::duplicate});

  const model::IncidentDescription& n = captures[1].description;
  CHECK(n.fired_at_ns == near.starts_at_ns);
  CHECK(detail(n, "alert.sent_starts_at_ns") == "(none)");
}

TEST_CASE("a closed receiver drops every alert, for the sender to send it again", "[alerts]") {
  using O = AlertOutcome;
  AlertReceiver receiver({});
  CHECK(receiver.receive(notification({alert("a")})) == std::vector<O>{O::captured});
  receiver.close();
  CHECK(receiver.receive(notification({alert("b"), alert("a", false)})) ==
        std::vector<O>{O::dropped, O::dropped});
  // What was taken before closing is still there for the capturer's last take.
  CHECK(taken(receiver).size() == 1);
}

TEST_CASE("the filter decides which alerts capture", "[alerts]") {
  AlertReceiverOptions options;
  options.match.push_back(
      *config::parse_alert_matchers("{severity=\"critical\", instance=~\"db-.*\"}"));
  AlertReceiver receiver(std::move(options));
  Alert db = alert("db");
  db.labels = {{"alertname", "X"}, {"instance", "db-1"}, {"severity", "critical"}};
  using O = AlertOutcome;
  CHECK(receiver.receive(notification({alert("web"), db})) ==
        std::vector<O>{O::filtered, O::captured});
  CHECK(receiver.outcomes(O::filtered) == 1);
}

TEST_CASE("an alert naming a container captures only where it ran, after the filter", "[alerts]") {
  AlertReceiverOptions options;
  options.match.push_back(*config::parse_alert_matchers("{severity=\"critical\"}"));
  AlertReceiver receiver(std::move(options));
  receiver.scope_with([](const config::AlertLabels& labels) {
    for (const auto& [name, value] : labels) {
      if (name == "pod") return value == "web-1" ? ContainerScope::here : ContainerScope::elsewhere;
    }
    return ContainerScope::unnamed;
  });
  const auto with_pod = [](std::string fingerprint, std::string pod, std::string severity) {
    Alert a = alert(std::move(fingerprint));
    a.labels = {{"alertname", "PodCrash"}, {"pod", std::move(pod)}, {"severity", severity}};
    return a;
  };
  using O = AlertOutcome;
  CHECK(receiver.receive(notification({with_pod("here", "web-1", "critical"),
                                       with_pod("there", "web-2", "critical"),
                                       with_pod("minor", "web-2", "info"), alert("node")})) ==
        std::vector<O>{O::captured, O::out_of_scope, O::filtered, O::captured});
  CHECK(receiver.outcomes(O::out_of_scope) == 1);
  // Not remembered: once the container runs here, the same alert captures.
  CHECK(taken(receiver).size() == 2);
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
  other_rule.kind = model::IncidentKind::rule;
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

TEST_CASE("an episode whose incident failed to be written is forgotten, and a re-send records it",
          "[alerts]") {
  using O = AlertOutcome;
  BreakableSink sink;
  sink.broken = true;
  // Two places: a forgotten episode must leave the bound's order too, or a later eviction would
  // forget the episode captured again in its place.
  AlertReceiver receiver({.max_episodes = 2});
  {
    IncidentWriter writer(sink);
    CHECK(receiver.receive(notification({alert("a")})) == std::vector<O>{O::captured});
    write_taken(receiver, writer);
  }  // the writer has written everything and told each outcome
  CHECK(receiver.episodes() == 0);
  // The store is fixed: the sender's re-send captures the alert again, and this time it stays.
  sink.broken = false;
  {
    IncidentWriter writer(sink);
    CHECK(receiver.receive(notification({alert("a")})) == std::vector<O>{O::captured});
    write_taken(receiver, writer);
    CHECK(receiver.receive(notification({alert("b")})) == std::vector<O>{O::captured});
    write_taken(receiver, writer);
  }
  CHECK(receiver.episodes() == 2);
  CHECK(receiver.receive(notification({alert("a"), alert("b")})) ==
        std::vector<O>{O::duplicate, O::duplicate});
  CHECK(receiver.outcomes(O::captured) == 3);
}
