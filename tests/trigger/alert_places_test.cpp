// An alert is answered "captured" (or its end "end_queued") only once its place in the incident
// writer's queue is held, so the writer never drops what the webhook accepted; an alert with no
// place is "dropped", not remembered, and taken when the sender re-sends it. The writer's drop
// warnings are a bounded number of lines.
#include <algorithm>
#include <catch2/catch.hpp>
#include <condition_variable>
#include <ctime>
#include <mutex>
#include <sstream>

#include "flightrec/common/clock.h"
#include "flightrec/store/ring.h"
#include "flightrec/trigger/alert_receiver.h"
#include "flightrec/trigger/writer.h"
#include "stderr_capture.h"

using namespace flightrec;
using namespace flightrec::trigger;
using namespace std::chrono_literals;
using O = AlertOutcome;

namespace {

constexpr int64_t kStart = 1'796'180'645'000'000'000;

Alert pod_alert(int pod, bool firing = true) {
  Alert a;
  a.firing = firing;
  a.labels = {{"alertname", "PodCrash"}, {"pod", "web-" + std::to_string(pod)}};
  a.starts_at_ns = kStart;
  if (!firing) a.ends_at_ns = kStart + 60'000'000'000;
  a.fingerprint = "fp" + std::to_string(pod);
  return a;
}

AlertNotification notification_of(int first_pod, int count, bool firing = true) {
  AlertNotification notification{.source = AlertSource::alertmanager, .group_key = "g"};
  for (int pod = first_pod; pod < first_pod + count; ++pod) {
    notification.alerts.push_back(pod_alert(pod, firing));
  }
  return notification;
}

// Writes nothing until opened, so that whatever is submitted stays in the writer's queue.
class GatedSink : public model::IncidentSink {
 public:
  model::WriteOutcome write(const model::IncidentCapture& incident, store::Snapshot) override {
    std::unique_lock lock(mutex_);
    gate_.wait(lock, [&] { return open_; });
    written_.push_back(incident.description.series);
    changed_.notify_all();
    return model::WriteOutcome::written;
  }
  void open() {
    const std::lock_guard lock(mutex_);
    open_ = true;
    gate_.notify_all();
  }
  size_t wait_for(size_t count) {
    std::unique_lock lock(mutex_);
    changed_.wait_for(lock, 5s, [&] { return written_.size() >= count; });
    return written_.size();
  }

 private:
  std::mutex mutex_;
  std::condition_variable gate_;
  std::condition_variable changed_;
  bool open_ = false;
  std::vector<std::string> written_;
};

std::vector<model::IncidentCapture> taken(AlertReceiver& receiver) {
  std::vector<model::IncidentCapture> out;
  if (receiver.waiting()) receiver.take(out);
  return out;
}

size_t count_of(const std::vector<O>& outcomes, O outcome) {
  return static_cast<size_t>(std::count(outcomes.begin(), outcomes.end(), outcome));
}

}  // namespace

TEST_CASE("every alert of a notification of 24 answered captured is written", "[alerts][places]") {
  GatedSink sink;
  {
    IncidentWriter writer(sink);  // 16 incidents as they come, 256 places for alerts
    AlertReceiver receiver({});
    receiver.reserve_places_with([&](std::string_view alert) { return writer.reserve(alert); });
    const auto outcomes = receiver.receive(notification_of(0, 24));
    CHECK(count_of(outcomes, O::captured) == 24);
    // Their windows end together: the capturer hands all 24 to the writer on one frame.
    for (model::IncidentCapture& capture : taken(receiver)) {
      CHECK(capture.reserved);
      CHECK(writer.submit(std::move(capture), store::Snapshot{}));
    }
    // A rule's incidents still find at most the 16 places of the queue (one more if the thread
    // has taken the first off it).
    size_t rule_incidents = 0;
    for (int i = 0; i < 20; ++i) {
      model::IncidentCapture rule_incident;
      rule_incident.description.series = "rule";
      if (writer.submit(rule_incident, store::Snapshot{})) ++rule_incidents;
    }
    CHECK(rule_incidents >= 16);
    CHECK(rule_incidents <= 17);
    CHECK(writer.dropped() == 20 - rule_incidents);
    sink.open();
    CHECK(sink.wait_for(24 + rule_incidents) == 24 + rule_incidents);
  }
}

TEST_CASE("an alert without a place is dropped, not remembered, and a re-send captures it",
          "[alerts][places]") {
  GatedSink sink;
  IncidentWriter writer(sink, IncidentWriter::kDefaultMaxQueued, nullptr, 3);
  AlertReceiver receiver({});
  receiver.reserve_places_with([&](std::string_view alert) { return writer.reserve(alert); });
  const auto first = receiver.receive(notification_of(0, 5));
  CHECK(first == std::vector<O>{O::captured, O::captured, O::captured, O::dropped, O::dropped});
  CHECK(receiver.episodes() == 3);
  CHECK(receiver.outcomes(O::dropped) == 2);
  // Places come back only once their incidents have left the writer's queue.
  auto captures = taken(receiver);
  CHECK(receiver.receive(notification_of(0, 5)) ==
        std::vector<O>{O::duplicate, O::duplicate, O::duplicate, O::dropped, O::dropped});
  for (model::IncidentCapture& capture : captures) {
    CHECK(writer.submit(std::move(capture), store::Snapshot{}));
  }
  sink.open();
  REQUIRE(sink.wait_for(3) == 3);
  std::vector<O> resent;
  for (int i = 0; i < 500 && count_of(resent, O::captured) == 0; ++i) {
    resent = receiver.receive(notification_of(0, 5));  // the last place frees after the write
  }
  CHECK(resent ==
        std::vector<O>{O::duplicate, O::duplicate, O::duplicate, O::captured, O::captured});
  CHECK(receiver.episodes() == 5);
}

TEST_CASE("an end without a place is dropped and taken when re-sent", "[alerts][places]") {
  GatedSink sink;
  sink.open();
  IncidentWriter writer(sink, IncidentWriter::kDefaultMaxQueued, nullptr, 1);
  AlertReceiver receiver({});
  receiver.reserve_places_with([&](std::string_view alert) { return writer.reserve(alert); });
  receiver.hand_revisions_to([&](model::IncidentRevision revision) {
    return writer.submit_revision(std::move(revision), store::Snapshot{});
  });
  store::Ring ring(store::RingOptions{.series = 1, .rate = 1ms});
  CHECK(receiver.receive(notification_of(0, 1)) == std::vector<O>{O::captured});
  auto captures = taken(receiver);
  REQUIRE(captures.size() == 1);
  receiver.complete(captures[0], ring.snapshot());  // written: an end now rewrites the file
  CHECK(writer.submit(std::move(captures[0]), store::Snapshot{}));
  REQUIRE(sink.wait_for(1) == 1);
  // Another alert's capture holds the only place.
  CHECK(receiver.receive(notification_of(1, 1)) == std::vector<O>{O::captured});
  CHECK(receiver.receive(notification_of(0, 1, false)) == std::vector<O>{O::dropped});
  CHECK(receiver.receive(notification_of(0, 1, false)) == std::vector<O>{O::dropped});
  captures = taken(receiver);
  REQUIRE(captures.size() == 1);
  CHECK(writer.submit(std::move(captures[0]), store::Snapshot{}));
  REQUIRE(sink.wait_for(2) == 2);
  std::vector<O> resent;
  for (int i = 0; i < 500 && resent != std::vector<O>{O::end_queued}; ++i) {
    resent = receiver.receive(notification_of(0, 1, false));
  }
  CHECK(resent == std::vector<O>{O::end_queued});
  CHECK(receiver.receive(notification_of(0, 1, false)) == std::vector<O>{O::duplicate});
}

TEST_CASE("10,000 incidents dropped at once are two log lines that count them all",
          "[writer][places]") {
  flightrec::testing::StderrCapture log;
  uint64_t dropped = 0;
  {
    GatedSink sink;
    IncidentWriter writer(sink, 1);
    for (int i = 0; i < 10000; ++i) {
      model::IncidentCapture incident;
      incident.description.rule = "r" + std::to_string(i);
      static_cast<void>(writer.submit(incident, store::Snapshot{}));
    }
    dropped = writer.dropped();
    CHECK(dropped >= 9998);
    CHECK(log.count("incident dropped: the writer is behind") == 1);
    sink.open();
  }  // what is still counted is written as the writer goes
  CHECK(log.count("incident dropped: the writer is behind") == 2);
  uint64_t logged = 0;
  std::istringstream lines(log.text());
  for (std::string line; std::getline(lines, line);) {
    const auto at = line.find(" count=");
    if (at != std::string::npos) logged += std::stoull(line.substr(at + 7));
  }
  CHECK(logged == dropped);
}

TEST_CASE("300 alerts starting in 2100 hold their places no longer than alerts starting now",
          "[alerts][places]") {
  GatedSink sink;
  IncidentWriter writer(sink);  // 256 places for alerts
  AlertReceiver receiver({.pre = 1s, .post = 1s});
  receiver.reserve_places_with([&](std::string_view alert) { return writer.reserve(alert); });
  AlertNotification future = notification_of(0, 300);
  for (Alert& alert : future.alerts) alert.starts_at_ns = 4'102'444'800'000'000'000;
  const auto outcomes = receiver.receive(future);
  const int64_t received_ns = clock_ns(CLOCK_REALTIME);
  CHECK(count_of(outcomes, O::captured) == 256);
  CHECK(count_of(outcomes, O::dropped) == 44);
  // Each capture's window ends a post window after its receipt, not in 2100: the capturer hands
  // it to the writer then, and its place is free again once it is written.
  auto captures = taken(receiver);
  REQUIRE(captures.size() == 256);
  for (model::IncidentCapture& capture : captures) {
    CHECK(capture.description.window_to_ns <= received_ns + 1'000'000'000);
    CHECK(writer.submit(std::move(capture), store::Snapshot{}));
  }
  sink.open();
  REQUIRE(sink.wait_for(256) == 256);
  std::vector<O> later;
  for (int i = 0; i < 500 && count_of(later, O::captured) == 0; ++i) {
    later = receiver.receive(notification_of(1000, 1));  // the last place frees after its write
  }
  CHECK(later == std::vector<O>{O::captured});
}
