// An alert's end after its incident was written: the window bound, what the ring still holds, and
// the receiver's outcomes as the writer thread settles them.
#include "flightrec/trigger/alert_end.h"

#include <catch2/catch.hpp>

#include "flightrec/trigger/alert_receiver.h"

using namespace flightrec;
using namespace flightrec::trigger;
using namespace std::chrono_literals;

namespace {

constexpr int64_t kS = 1'000'000'000;
constexpr int64_t kStart = 1'796'180'645'000'000'000;  // 2026-12-02T03:04:05Z

std::string detail(const model::IncidentDescription& incident, std::string_view key) {
  for (const auto& [name, value] : incident.details) {
    if (name == key) return value;
  }
  return "(none)";
}

model::IncidentDescription stored_alert() {
  return {.kind = model::IncidentKind::alert,
          .rule = "alert",
          .fired_at_ns = kStart,
          .window_from_ns = kStart - 60 * kS,
          .window_to_ns = kStart + 60 * kS,
          .details = {{"alert.source", "alertmanager"},
                      {"alert.status", "firing"},
                      {"alert.fingerprint", "a"}}};
}

store::RingStats ring_holding(int64_t from_ns, int64_t to_ns) {
  return {.frames = 1000, .first_real_ns = from_ns, .last_real_ns = to_ns};
}

Alert alert(bool firing) {
  Alert a;
  a.firing = firing;
  a.labels = {{"alertname", "HighLoad"}};
  a.starts_at_ns = kStart;
  if (!firing) a.ends_at_ns = kStart + 200 * kS;
  a.fingerprint = "a";
  return a;
}

AlertNotification notification(Alert a) {
  return {.source = AlertSource::alertmanager, .alerts = {std::move(a)}};
}

// A receiver whose incident of episode "a" has been written, with its revisions collected.
struct WrittenEpisode {
  explicit WrittenEpisode(std::chrono::nanoseconds max_extension = 5min)
      : receiver({.max_extension = max_extension}) {
    receiver.hand_revisions_to([this](model::IncidentRevision revision) {
      if (refuse) return false;
      revisions.push_back(std::move(revision));
      return true;
    });
    static_cast<void>(receiver.receive(notification(alert(true))));
    std::vector<model::IncidentCapture> captures;
    receiver.take(captures);
    REQUIRE(captures.size() == 1);
    receiver.complete(captures[0], store::Snapshot{});
  }
  // What the recorder thread does on its next frame.
  void next_frame() {
    std::vector<model::IncidentCapture> none;
    if (receiver.waiting()) receiver.take(none);
  }
  AlertReceiver receiver;
  std::vector<model::IncidentRevision> revisions;
  bool refuse = false;
};

}  // namespace

TEST_CASE("theWindowExtendsToTheEndWithinMaxExtension", "[alerts]") {
  const int64_t to = kStart + 60 * kS;
  CHECK(extended_window_to(to, to + 30 * kS, 5min) == to + 30 * kS);
  CHECK(extended_window_to(to, to + 900 * kS, 5min) == to + 300 * kS);
  CHECK(extended_window_to(to, to + 30 * kS, 0s) == to);
  CHECK(extended_window_to(to, to - 30 * kS, 5min) == to);  // ended inside the window
}

TEST_CASE("anEndedIncidentTakesWhatTheRingHoldsOfTheWantedExtension", "[alerts]") {
  const model::IncidentDescription stored = stored_alert();
  const int64_t ends_at = kStart + 200 * kS;

  // The ring holds the stored end and 100 s past it: the wanted 140 s are held up to 100 s.
  model::RevisedIncident revised =
      ended_incident(stored, ends_at, 5min, ring_holding(kStart - 500 * kS, kStart + 160 * kS));
  CHECK(revised.description.window_to_ns == ends_at);
  CHECK(revised.append_until_ns == kStart + 160 * kS);
  CHECK(detail(revised.description, "alert.status") == "resolved");
  CHECK(detail(revised.description, "alert.ends_at") == "2026-12-02T03:07:25.000Z");
  CHECK(detail(revised.description, "alert.window_held_to") == "2026-12-02T03:06:45.000Z");
  CHECK(revised.description.window_from_ns == stored.window_from_ns);

  // The bound: 30 s past the stored end at most.
  revised = ended_incident(stored, ends_at, 30s, ring_holding(kStart - 500 * kS, ends_at));
  CHECK(revised.description.window_to_ns == kStart + 90 * kS);
  CHECK(revised.append_until_ns == kStart + 90 * kS);
  CHECK(detail(revised.description, "alert.window_held_to") == "2026-12-02T03:05:35.000Z");

  // A ring that starts after the stored end (a restart, or it moved on): nothing appended.
  revised = ended_incident(stored, ends_at, 5min, ring_holding(kStart + 61 * kS, ends_at));
  CHECK(revised.append_until_ns == 0);
  CHECK(revised.description.window_to_ns == ends_at);
  CHECK(detail(revised.description, "alert.window_held_to") == "2026-12-02T03:05:05.000Z");

  // Extension off: the end is recorded, the window and the file's frames stay.
  revised = ended_incident(stored, ends_at, 0s, ring_holding(kStart - 500 * kS, ends_at));
  CHECK(revised.append_until_ns == 0);
  CHECK(revised.description.window_to_ns == stored.window_to_ns);
  CHECK(detail(revised.description, "alert.status") == "resolved");
  CHECK(detail(revised.description, "alert.window_held_to") == "(none)");
}

TEST_CASE("anEndAfterTheWriteIsQueuedHandedOverByTheRecorderAndSettledByTheWriter", "[alerts]") {
  using O = AlertOutcome;
  WrittenEpisode written;
  CHECK(written.receiver.receive(notification(alert(false))) == std::vector<O>{O::end_queued});
  CHECK(written.revisions.empty());  // handed over on the recorder thread, not the HTTP one
  written.next_frame();
  REQUIRE(written.revisions.size() == 1);
  const model::IncidentRevision& revision = written.revisions[0];
  CHECK(revision.matches(stored_alert()));
  model::IncidentDescription other = stored_alert();
  other.details[2].second = "b";
  CHECK_FALSE(revision.matches(other));
  const model::RevisedIncident revised =
      revision.revise(stored_alert(), ring_holding(kStart - 500 * kS, kStart + 300 * kS));
  CHECK(revised.description.window_to_ns == kStart + 200 * kS);

  // Counted once settled, under what became of it; a re-send is a duplicate.
  CHECK(written.receiver.outcomes(O::end_recorded) == 0);
  revision.done(model::RevisionOutcome::revised);
  CHECK(written.receiver.outcomes(O::end_recorded) == 1);
  CHECK(written.receiver.outcomes(O::end_queued) == 0);
  CHECK(written.receiver.receive(notification(alert(false))) == std::vector<O>{O::duplicate});
}

TEST_CASE("anEndThatCouldNotBeRecordedIsCountedAndAFailedOneTriedAgain", "[alerts]") {
  using O = AlertOutcome;
  WrittenEpisode written;
  static_cast<void>(written.receiver.receive(notification(alert(false))));
  written.next_frame();
  REQUIRE(written.revisions.size() == 1);
  written.revisions[0].done(model::RevisionOutcome::failed);
  CHECK(written.receiver.outcomes(O::end_failed) == 1);
  // The next re-send of the end tries again; this time the incident is gone.
  CHECK(written.receiver.receive(notification(alert(false))) == std::vector<O>{O::end_queued});
  written.next_frame();
  REQUIRE(written.revisions.size() == 2);
  written.revisions[1].done(model::RevisionOutcome::not_stored);
  CHECK(written.receiver.outcomes(O::end_too_late) == 1);

  // A writer too far behind to take it: failed at once.
  WrittenEpisode busy;
  busy.refuse = true;
  static_cast<void>(busy.receiver.receive(notification(alert(false))));
  busy.next_frame();
  CHECK(busy.receiver.outcomes(O::end_failed) == 1);
}

TEST_CASE("anEndForAnEpisodeStoredBeforeARestartIsQueuedToo", "[alerts]") {
  using O = AlertOutcome;
  AlertReceiver receiver({}, [](const std::string&) { return true; });
  std::vector<model::IncidentRevision> revisions;
  receiver.hand_revisions_to([&](model::IncidentRevision revision) {
    revisions.push_back(std::move(revision));
    return true;
  });
  CHECK(receiver.receive(notification(alert(false))) == std::vector<O>{O::end_queued});
  std::vector<model::IncidentCapture> none;
  receiver.take(none);
  CHECK(none.empty());
  CHECK(revisions.size() == 1);
}

TEST_CASE("reloadedOptionsApplyToTheNextNotifications", "[alerts]") {
  AlertReceiver receiver({.pre = 30s, .post = 10s});
  AlertReceiverOptions reloaded{.pre = 5s, .post = 1s};
  reloaded.match.push_back(*config::parse_alert_matchers("{alertname=\"HighLoad\"}"));
  receiver.set_options(std::move(reloaded));
  Alert other = alert(true);
  other.labels = {{"alertname", "Other"}};
  other.fingerprint = "o";
  using O = AlertOutcome;
  CHECK(receiver.receive(notification(other)) == std::vector<O>{O::filtered});
  CHECK(receiver.receive(notification(alert(true))) == std::vector<O>{O::captured});
  std::vector<model::IncidentCapture> captures;
  receiver.take(captures);
  REQUIRE(captures.size() == 1);
  CHECK(captures[0].description.window_from_ns == kStart - 5 * kS);
  CHECK(captures[0].description.window_to_ns == kStart + 1 * kS);
}

TEST_CASE("anAlertFirstSeenResolvedGetsItsWindowExtendedAtCapture", "[alerts]") {
  AlertReceiver receiver({.post = 60s, .max_extension = 100s});
  static_cast<void>(receiver.receive(notification(alert(false))));  // ended 200 s after start
  std::vector<model::IncidentCapture> captures;
  receiver.take(captures);
  REQUIRE(captures.size() == 1);
  CHECK(captures[0].description.window_to_ns == kStart + 160 * kS);
}
