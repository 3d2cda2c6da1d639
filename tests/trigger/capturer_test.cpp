#include "flightrec/trigger/capturer.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <condition_variable>
#include <iterator>
#include <mutex>
#include <thread>

#include "engine_fixture.h"
#include "flightrec/trigger/alert_receiver.h"
#include "flightrec/trigger/builtin_rules.h"
#include "flightrec/trigger/writer.h"

using namespace flightrec;
using namespace flightrec::trigger;
using namespace flightrec::trigger::testing;
using namespace std::chrono_literals;
using config::Comparison;
using config::Duration;

namespace {

constexpr int64_t kStartReal = 1'700'000'000'000'000'000;

struct Handed {
  model::IncidentCapture capture;
  store::Snapshot snapshot;
  uint64_t handed_at_tick;
};

// Frames go into a real ring first, then through the capturer, as Recorder::drain() will do.
struct Rig {
  Host host;
  TriggerEngine engine;
  store::Ring ring{store::RingOptions{.series = static_cast<uint32_t>(kRaw), .rate = 1ms}};
  std::vector<Handed> handed;
  IncidentCapturer capturer;
  std::vector<double> derived = std::vector<double>(kDerived, 0.0);
  std::vector<int64_t> raw = std::vector<int64_t>(kRaw, 0);
  uint64_t tick = 0;

  explicit Rig(std::vector<config::TriggerRule> rules, CaptureOptions options = {})
      : engine(std::move(rules), host.signals, host.schema, 1ms),
        capturer(engine, ring, options,
                 [this](model::IncidentCapture capture, store::Snapshot snapshot) {
                   handed.push_back({std::move(capture), std::move(snapshot), tick});
                 }) {}

  void run(double cpu_total, size_t ticks) {
    for (size_t i = 0; i < ticks; ++i) {
      derived[kCpuTotal] = cpu_total;
      sampler::FrameHeader header{tick, static_cast<int64_t>(tick) * 1'000'000,
                                  kStartReal + static_cast<int64_t>(tick) * 1'000'000};
      ring.append(header, raw);
      capturer.on_frame(header, raw, derived);
      ++tick;
    }
  }
};

config::TriggerRule cpu_hot(Duration pre, Duration post) {
  auto r = rule("cpu_hot", "cpu_busy_ratio", Comparison::greater, 0.8);
  r.pre = pre;
  r.post = post;
  r.cooldown = 0ms;
  return r;
}

// Records what the writer thread hands it and lets the test wait for a count.
class RecordingSink : public model::IncidentSink {
 public:
  model::WriteOutcome write(const model::IncidentCapture& incident,
                            store::Snapshot blocks) override {
    std::lock_guard lock(mutex_);
    written_.push_back({incident, std::move(blocks), 0});
    changed_.notify_all();
    return model::WriteOutcome::written;
  }
  std::vector<Handed> wait_for(size_t count) {
    std::unique_lock lock(mutex_);
    changed_.wait_for(lock, 5s, [&] { return written_.size() >= count; });
    return written_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<Handed> written_;
};

// A source of requests with their windows chosen, as the alert receiver is: what it was asked to
// capture, and which of its requests it was asked to complete.
class FakeRequests final : public CaptureRequests {
 public:
  explicit FakeRequests(std::string name) : name_(std::move(name)) {}
  // A request for [fired - 2 ms, fired + post_ms], asked on the next frame.
  void ask(int64_t fired_at_ns, int64_t post_ms) {
    model::IncidentCapture capture;
    capture.description = {.kind = model::IncidentKind::alert,
                           .rule = name_,
                           .fired_at_ns = fired_at_ns,
                           .window_from_ns = fired_at_ns - 2'000'000,
                           .window_to_ns = fired_at_ns + post_ms * 1'000'000};
    waiting_.push_back(std::move(capture));
  }
  [[nodiscard]] bool waiting() const noexcept override { return !waiting_.empty(); }
  void take(std::vector<model::IncidentCapture>& out) override {
    std::move(waiting_.begin(), waiting_.end(), std::back_inserter(out));
    waiting_.clear();
  }
  void complete(model::IncidentCapture& capture, const store::Snapshot&) override {
    completed.push_back(capture.description.rule);
    capture.description.details.emplace_back("completed_by", name_);
  }
  std::vector<std::string> completed;

 private:
  std::string name_;
  std::vector<model::IncidentCapture> waiting_;
};

}  // namespace

TEST_CASE("an incident completes once T + post is recorded, with its window", "[capture]") {
  Rig rig({cpu_hot(2s, 20ms)});
  rig.run(0.1, 10);
  rig.run(0.9, 1);  // fires at tick 10
  CHECK(rig.capturer.pending() == 1);
  rig.run(0.1, 19);  // ticks 11..29: the post window is still being recorded
  CHECK(rig.handed.empty());
  rig.run(0.1, 1);  // tick 30 = T + 20 ms
  REQUIRE(rig.handed.size() == 1);
  const model::IncidentDescription& c = rig.handed[0].capture.description;
  CHECK(c.rule == "cpu_hot");
  CHECK(c.kind == model::IncidentKind::rule);
  CHECK(c.condition == "cpu_busy_ratio > 0.8");
  CHECK(c.series == "cpu_busy_ratio{cpu=\"total\"}");
  CHECK(c.reason.empty());
  CHECK(c.value == Approx(0.9));
  CHECK(rig.handed[0].capture.tick == 10);
  CHECK(c.fired_at_ns == kStartReal + 10'000'000);
  CHECK(c.window_from_ns == c.fired_at_ns - 2'000'000'000);
  CHECK(c.window_to_ns == c.fired_at_ns + 20'000'000);
  CHECK(rig.handed[0].handed_at_tick == 30);
  // The snapshot handed over already holds the last frame of the window.
  auto blocks = rig.handed[0].snapshot.blocks();
  REQUIRE_FALSE(blocks.empty());
  CHECK(blocks.back()->last_tick() == 30);
  CHECK(rig.capturer.pending() == 0);
}

TEST_CASE("an incident's condition keeps a small threshold exactly", "[capture]") {
  auto r = rule("cpu_any", "cpu_busy_ratio{cpu=\"total\"}", Comparison::greater, 1e-7);
  r.post = 0ms;
  Rig rig({r});
  rig.run(0.9, 1);
  REQUIRE(rig.handed.size() == 1);
  // Not "> 0": six fixed decimals would round the threshold away.
  CHECK(rig.handed[0].capture.description.condition == "cpu_busy_ratio{cpu=\"total\"} > 1e-07");
}

TEST_CASE("a rule without pre takes the whole buffer", "[capture]") {
  auto r = cpu_hot(0s, 0s);
  r.pre.reset();
  Rig rig({r}, CaptureOptions{.rate = 1ms, .buffer_duration = 10min});
  rig.run(0.9, 1);  // post 0: complete on the firing tick
  REQUIRE(rig.handed.size() == 1);
  CHECK(rig.handed[0].capture.description.window_from_ns == kStartReal - 600'000'000'000);
  CHECK(rig.handed[0].capture.description.window_to_ns == kStartReal);
}

TEST_CASE("several incidents can be pending at once", "[capture]") {
  auto r = cpu_hot(1s, 10ms);
  r.cooldown = 3ms;
  Rig rig({r});
  rig.run(0.9, 7);  // fires at ticks 0, 3, 6
  CHECK(rig.capturer.pending() == 3);
  rig.run(0.1, 10);  // ticks 7..16 complete 0 (at 10), 3 (at 13), 6 (at 16)
  REQUIRE(rig.handed.size() == 3);
  CHECK(rig.handed[0].capture.tick == 0);
  CHECK(rig.handed[0].handed_at_tick == 10);
  CHECK(rig.handed[1].capture.tick == 3);
  CHECK(rig.handed[1].handed_at_tick == 13);
  CHECK(rig.handed[2].capture.tick == 6);
  CHECK(rig.handed[2].handed_at_tick == 16);
}

TEST_CASE("a manual request captures the whole buffer and manual_post after", "[capture]") {
  Rig rig({}, CaptureOptions{.rate = 1ms, .buffer_duration = 1min, .manual_post = 5ms});
  rig.run(0.1, 3);
  REQUIRE(rig.engine.fire_manual("checking a deploy"));
  rig.run(0.1, 5);  // fires at tick 3, completes at tick 8
  CHECK(rig.handed.empty());
  rig.run(0.1, 1);
  REQUIRE(rig.handed.size() == 1);
  const model::IncidentDescription& c = rig.handed[0].capture.description;
  CHECK(c.rule == "manual");
  CHECK(c.kind == model::IncidentKind::manual);
  CHECK(c.reason == "checking a deploy");
  CHECK(c.condition.empty());
  CHECK(c.series.empty());
  CHECK(std::isnan(c.value));
  CHECK(rig.handed[0].capture.tick == 3);
  CHECK(c.window_from_ns == c.fired_at_ns - 60'000'000'000);
  CHECK(c.window_to_ns == c.fired_at_ns + 5'000'000);
}

TEST_CASE("a manual request made before its frame fires at the time it was made", "[capture]") {
  Rig rig({}, CaptureOptions{.rate = 1ms, .buffer_duration = 1min, .manual_post = 5ms});
  rig.run(0.1, 3);
  // Made 2 ms before the frame of tick 3 (the recorder takes frames in batches): the window is
  // the request's, and the capture completes once the frames pass its end.
  const int64_t requested_at = kStartReal + 1'000'000;
  REQUIRE(rig.engine.fire_manual("from a script", requested_at));
  rig.run(0.1, 3);
  CHECK(rig.handed.empty());
  rig.run(0.1, 1);  // tick 6 reaches 1 ms + 5 ms
  REQUIRE(rig.handed.size() == 1);
  const model::IncidentDescription& c = rig.handed[0].capture.description;
  CHECK(c.fired_at_ns == requested_at);
  CHECK(c.window_from_ns == requested_at - 60'000'000'000);
  CHECK(c.window_to_ns == requested_at + 5'000'000);
  CHECK(rig.handed[0].capture.tick == 3);
}

TEST_CASE("at shutdown every pending incident is handed over with the post window it has",
          "[capture]") {
  Rig rig({cpu_hot(2s, 5s)},
          CaptureOptions{.rate = 1ms, .buffer_duration = 1min, .manual_post = 5s});
  AlertReceiver alerts({.pre = 1s, .post = 10s});
  rig.capturer.add_requests(alerts);
  rig.run(0.9, 1);  // the rule fires at tick 0
  rig.run(0.1, 500);
  REQUIRE(rig.engine.fire_manual("deploy"));
  rig.run(0.1, 700);  // the manual request fires at tick 501; the last frame is tick 1200
  // An alert answered after the last frame: still waiting for the recorder thread to take it.
  Alert alert;
  alert.labels = {{"alertname", "HighLoad"}};
  alert.fingerprint = "a";
  alert.starts_at_ns = kStartReal + 1'000'000'000;
  REQUIRE(alerts.receive({.alerts = {alert}}) == std::vector<AlertOutcome>{AlertOutcome::captured});
  REQUIRE(rig.handed.empty());

  CHECK(rig.capturer.finish_at_shutdown() == 3);
  CHECK(rig.capturer.pending() == 0);
  REQUIRE(rig.handed.size() == 3);
  const auto cut_short = [](const model::IncidentDescription& incident) {
    for (const auto& [key, value] : incident.details) {
      if (key == kCutShortDetail) return value;
    }
    return std::string("(none)");
  };
  const int64_t last_ns = kStartReal + 1'200'000'000;
  const model::IncidentDescription& rule = rig.handed[0].capture.description;
  CHECK(rule.rule == "cpu_hot");
  CHECK(rule.window_to_ns == last_ns);
  CHECK(cut_short(rule) == "post window cut short by shutdown: 1.2s of 5s");
  const model::IncidentDescription& manual = rig.handed[1].capture.description;
  CHECK(manual.rule == "manual");
  CHECK(manual.window_to_ns == last_ns);
  CHECK(cut_short(manual) == "post window cut short by shutdown: 699ms of 5s");
  const model::IncidentDescription& cut_alert = rig.handed[2].capture.description;
  CHECK(cut_alert.rule == "alert");
  CHECK(cut_alert.window_to_ns == last_ns);
  CHECK(cut_short(cut_alert) == "post window cut short by shutdown: 200ms of 10s");
  // Completed by the receiver as any alert incident is: it says what the ring held.
  const auto held = std::find_if(cut_alert.details.begin(), cut_alert.details.end(),
                                 [](const auto& d) { return d.first == "alert.window_held_from"; });
  CHECK(held != cut_alert.details.end());
}

TEST_CASE("an incident whose window was recorded whole is not called cut short", "[capture]") {
  Rig rig({});
  AlertReceiver alerts({.pre = 10ms, .post = 20ms});
  rig.capturer.add_requests(alerts);
  rig.run(0.1, 100);
  // Taken only by the last take, but its window ended on tick 50: all of it was recorded.
  Alert alert;
  alert.labels = {{"alertname", "HighLoad"}};
  alert.fingerprint = "a";
  alert.starts_at_ns = kStartReal + 30'000'000;
  REQUIRE(alerts.receive({.alerts = {alert}}) == std::vector<AlertOutcome>{AlertOutcome::captured});
  CHECK(rig.capturer.finish_at_shutdown() == 0);
  REQUIRE(rig.handed.size() == 1);
  const model::IncidentDescription& c = rig.handed[0].capture.description;
  CHECK(c.window_to_ns == kStartReal + 50'000'000);
  CHECK(std::none_of(c.details.begin(), c.details.end(),
                     [](const auto& d) { return d.first == kCutShortDetail; }));
}

TEST_CASE("the oom_kill rule's incidents are of kind oom_kill", "[capture]") {
  auto r = rule(std::string(kOomKillRule), "cpu_busy_ratio", Comparison::greater, 0.8);
  r.post = 0ms;
  Rig rig({r});
  rig.run(0.9, 1);
  REQUIRE(rig.handed.size() == 1);
  CHECK(rig.handed[0].capture.description.kind == model::IncidentKind::oom_kill);
}

TEST_CASE("requests from several sources are each captured and completed by their source",
          "[capture]") {
  FakeRequests first("first");
  FakeRequests second("second");
  Rig rig({});
  rig.capturer.add_requests(first);
  rig.capturer.add_requests(second);
  rig.run(0.1, 2);
  first.ask(kStartReal + 1'000'000, 5);   // ends at tick 6
  second.ask(kStartReal + 2'000'000, 2);  // ends at tick 4
  rig.run(0.1, 1);                        // tick 2 takes both
  CHECK_FALSE(first.waiting());
  CHECK_FALSE(second.waiting());
  CHECK(rig.capturer.pending() == 2);
  rig.run(0.1, 2);  // ticks 3, 4
  REQUIRE(rig.handed.size() == 1);
  CHECK(rig.handed[0].capture.description.rule == "second");
  CHECK(rig.handed[0].handed_at_tick == 4);
  rig.run(0.1, 2);  // ticks 5, 6
  REQUIRE(rig.handed.size() == 2);
  CHECK(rig.handed[1].capture.description.rule == "first");
  CHECK(rig.handed[1].handed_at_tick == 6);
  // Each source completes only its own requests, just before they are handed over.
  CHECK(first.completed == std::vector<std::string>{"first"});
  CHECK(second.completed == std::vector<std::string>{"second"});
  CHECK(rig.handed[0].capture.description.details == recording::Labels{{"completed_by", "second"}});
  CHECK(rig.handed[1].capture.description.details == recording::Labels{{"completed_by", "first"}});
}

TEST_CASE("the writer thread hands every incident to the sink, in order", "[writer]") {
  RecordingSink sink;
  {
    IncidentWriter writer(sink);
    for (uint64_t tick : {1u, 2u, 3u}) {
      model::IncidentCapture c;
      c.description.rule = "r";
      c.tick = tick;
      CHECK(writer.submit(c, store::Snapshot{}));
    }
    auto written = sink.wait_for(3);
    REQUIRE(written.size() == 3);
    CHECK(written[0].capture.tick == 1);
    CHECK(written[2].capture.tick == 3);
  }
}

TEST_CASE("the writer drops incidents beyond its queue and writes the rest on exit", "[writer]") {
  // A sink that blocks until released, so the queue fills.
  class GatedSink : public model::IncidentSink {
   public:
    model::WriteOutcome write(const model::IncidentCapture& incident, store::Snapshot) override {
      std::unique_lock lock(mutex);
      gate.wait(lock, [&] { return open; });
      ticks.push_back(incident.tick);
      return model::WriteOutcome::written;
    }
    std::mutex mutex;
    std::condition_variable gate;
    bool open = false;
    std::vector<uint64_t> ticks;
  } sink;
  size_t accepted = 0;
  uint64_t dropped = 0;
  {
    IncidentWriter writer(sink, 2);
    for (uint64_t tick = 0; tick < 6; ++tick) {
      model::IncidentCapture c;
      c.tick = tick;
      if (writer.submit(c, store::Snapshot{})) ++accepted;
    }
    dropped = writer.dropped();
    {
      std::lock_guard lock(sink.mutex);
      sink.open = true;
    }
    sink.gate.notify_all();
  }  // the destructor writes what was queued
  // The thread may have taken the first incident off the queue before the rest arrived.
  CHECK(accepted >= 2);
  CHECK(accepted <= 3);
  CHECK(dropped == 6 - accepted);
  CHECK(sink.ticks.size() == accepted);
}

TEST_CASE("the writer makes a revision after the writes queued before it and tells its outcome",
          "[writer]") {
  // Records the order of writes and revisions; a revision finds an incident written before it.
  class Journal : public model::IncidentSink, public model::IncidentReviser {
   public:
    model::WriteOutcome write(const model::IncidentCapture& incident, store::Snapshot) override {
      events.push_back("write " + incident.description.rule);
      return model::WriteOutcome::written;
    }
    model::RevisionOutcome revise(const model::IncidentRevision& revision,
                                  store::Snapshot) override {
      const bool found = std::any_of(events.begin(), events.end(), [&](const std::string& e) {
        return revision.matches({.rule = e.substr(6)});
      });
      events.push_back("revise");
      return found ? model::RevisionOutcome::revised : model::RevisionOutcome::not_stored;
    }
    std::vector<std::string> events;  // only the writer thread touches it until it is joined
  } journal;
  std::vector<model::RevisionOutcome> told;
  {
    IncidentWriter writer(journal, 16, &journal);
    model::IncidentCapture capture;
    capture.description.rule = "alert";
    CHECK(writer.submit(capture, store::Snapshot{}));
    const auto revision_of = [&](std::string rule) {
      return model::IncidentRevision{
          .matches = [rule](const model::IncidentDescription& d) { return d.rule == rule; },
          .revise = {},
          .done = [&told](model::RevisionOutcome outcome) { told.push_back(outcome); }};
    };
    CHECK(writer.submit_revision(revision_of("alert"), store::Snapshot{}));
    CHECK(writer.submit_revision(revision_of("gone"), store::Snapshot{}));
  }  // the destructor makes what was queued
  CHECK(journal.events == std::vector<std::string>{"write alert", "revise", "revise"});
  CHECK(told == std::vector<model::RevisionOutcome>{model::RevisionOutcome::revised,
                                                    model::RevisionOutcome::not_stored});
}

TEST_CASE("the writer's finish writes for its budget and tells the jobs left failed", "[writer]") {
  class SlowSink : public model::IncidentSink {
   public:
    model::WriteOutcome write(const model::IncidentCapture&, store::Snapshot) override {
      std::this_thread::sleep_for(30ms);
      return model::WriteOutcome::written;
    }
  } sink;
  std::vector<model::WriteOutcome> told;  // by the writer thread only, until finish() joins it
  IncidentWriter writer(sink);
  for (int i = 0; i < 10; ++i) {
    model::IncidentCapture capture;
    capture.done = [&told](model::WriteOutcome outcome) { told.push_back(outcome); };
    REQUIRE(writer.submit(std::move(capture), store::Snapshot{}));
  }
  const size_t left = writer.finish(100ms);
  // Writes of 30 ms begun within 100 ms: at most 4, however slow the machine.
  CHECK(left >= 6);
  REQUIRE(told.size() == 10);
  CHECK(static_cast<size_t>(std::count(told.begin(), told.end(), model::WriteOutcome::failed)) ==
        left);
  CHECK(std::all_of(told.begin(), told.begin() + static_cast<std::ptrdiff_t>(10 - left),
                    [](model::WriteOutcome o) { return o == model::WriteOutcome::written; }));
}

TEST_CASE("a writer without a reviser tells every revision not_stored", "[writer]") {
  RecordingSink sink;
  std::vector<model::RevisionOutcome> told;
  {
    IncidentWriter writer(sink);
    CHECK(writer.submit_revision(
        {.matches = {}, .revise = {}, .done = [&](model::RevisionOutcome o) { told.push_back(o); }},
        store::Snapshot{}));
  }
  CHECK(told == std::vector<model::RevisionOutcome>{model::RevisionOutcome::not_stored});
}
