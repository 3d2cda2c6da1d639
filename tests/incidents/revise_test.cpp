// The incident file sink as the writer thread's reviser: an alert's end recorded into a written
// incident, its window extended with the ring's frames after the stored ones.
#include <catch2/catch.hpp>

#include "flightrec/incidents/incident_file_sink.h"
#include "flightrec/recording/recording_file.h"
#include "flightrec/store/ring.h"
#include "flightrec/trigger/alert_end.h"
#include "incident_fixture.h"

using namespace flightrec;
using namespace flightrec::incidents;
using namespace incident_test;
using namespace std::chrono_literals;

namespace {

constexpr int64_t kMs = 1'000'000;

void record(store::Ring& ring, uint64_t from_tick, uint64_t to_tick) {
  for (uint64_t tick = from_tick; tick <= to_tick; ++tick) {
    const int64_t offset = static_cast<int64_t>(tick) * kMs;
    const int64_t values[] = {static_cast<int64_t>(tick), 7};
    ring.append({.tick = tick, .mono_ns = offset, .real_ns = kT0 + offset}, values);
  }
}

std::string detail(const model::IncidentDescription& incident, std::string_view key) {
  for (const auto& [name, value] : incident.details) {
    if (name == key) return value;
  }
  return "(none)";
}

model::IncidentRevision end_at(int64_t ends_at_ns, std::chrono::nanoseconds max_extension) {
  return {.matches = [](const model::IncidentDescription& d) { return d.rule == "alert"; },
          .revise =
              [=](const model::IncidentDescription& stored, const store::RingStats& ring) {
                return trigger::ended_incident(stored, ends_at_ns, max_extension, ring);
              },
          .done = {}};
}

}  // namespace

TEST_CASE("aLateEndIsRewrittenIntoTheIncidentWithTheRingsFramesUpToTheBound", "[rewrite]") {
  TempDir dir;
  StderrCapture log;
  IncidentStore store({.dir = dir.path()});
  IncidentFileSink sink(store, [] { return make_metadata(); });
  store::Ring ring({.series = 2, .rate = 1ms, .block_frames = 100});
  record(ring, 0, 179);  // the open block holds 100..179 when the incident is written
  const model::IncidentDescription alert{.rule = "alert",
                                         .fired_at_ns = kT0 + 100 * kMs,
                                         .window_from_ns = kT0,
                                         .window_to_ns = kT0 + 150 * kMs,
                                         .details = {{"alert.status", "firing"}}};
  sink.write({.description = alert}, ring.snapshot());
  record(ring, 180, 399);

  // Ended at 300 ms; the bound allows 100 ms past the stored end: the window grows to 250 ms.
  CHECK(sink.revise(end_at(kT0 + 300 * kMs, 100ms), ring.snapshot()) ==
        model::RevisionOutcome::revised);
  const auto entries = store.list();
  REQUIRE(entries.size() == 1);
  const model::IncidentDescription& ended = entries[0].incident;
  CHECK(ended.window_from_ns == kT0);
  CHECK(ended.window_to_ns == kT0 + 250 * kMs);
  CHECK(detail(ended, "alert.status") == "resolved");
  CHECK(detail(ended, "alert.ends_at") == "2025-11-30T05:00:00.300Z");
  CHECK(detail(ended, "alert.window_held_to") == "2025-11-30T05:00:00.250Z");

  // Every frame once, in order, from the first to the new end: the stored part of the block that
  // was open at the write is not repeated, its later frames are appended.
  const auto read = recording::read_recording(*store.file_of(entries[0].id));
  REQUIRE(read.ok());
  std::vector<uint64_t> all;
  std::vector<uint64_t> ticks;
  for (const auto& block : read->blocks) {
    block->decode_ticks(ticks);
    all.insert(all.end(), ticks.begin(), ticks.end());
  }
  REQUIRE(all.size() == 251);
  for (size_t i = 0; i < all.size(); ++i) CHECK(all[i] == i);
}

TEST_CASE("anEndWithoutExtensionOrFromARingThatMovedOnAppendsNothing", "[rewrite]") {
  TempDir dir;
  StderrCapture log;
  IncidentStore store({.dir = dir.path()});
  IncidentFileSink sink(store, [] { return make_metadata(); });
  store::Ring ring({.series = 2, .rate = 1ms, .block_frames = 100});
  record(ring, 0, 199);
  const model::IncidentDescription alert{
      .rule = "alert", .window_from_ns = kT0, .window_to_ns = kT0 + 150 * kMs};
  sink.write({.description = alert}, ring.snapshot());
  const uint64_t bytes = store.list()[0].bytes;

  SECTION("max_extension 0 records the end only") {
    CHECK(sink.revise(end_at(kT0 + 190 * kMs, 0s), ring.snapshot()) ==
          model::RevisionOutcome::revised);
    const model::IncidentDescription ended = store.list()[0].incident;
    CHECK(ended.window_to_ns == alert.window_to_ns);
    CHECK(detail(ended, "alert.status") == "resolved");
    CHECK(detail(ended, "alert.window_held_to") == "(none)");
  }
  SECTION("a ring that no longer holds the stored end (a restart) adds no frames") {
    store::Ring restarted({.series = 2, .rate = 1ms, .block_frames = 100});
    for (uint64_t tick = 0; tick < 50; ++tick) {
      const int64_t ns = kT0 + 300 * kMs + static_cast<int64_t>(tick) * kMs;
      const int64_t values[] = {1, 2};
      restarted.append({.tick = tick, .mono_ns = ns, .real_ns = ns}, values);
    }
    CHECK(sink.revise(end_at(kT0 + 340 * kMs, 1min), restarted.snapshot()) ==
          model::RevisionOutcome::revised);
    const model::IncidentDescription ended = store.list()[0].incident;
    CHECK(ended.window_to_ns == kT0 + 340 * kMs);  // the window wanted
    CHECK(detail(ended, "alert.window_held_to") == "2025-11-30T05:00:00.150Z");  // what it has
    CHECK(store.list()[0].bytes - bytes < 200);                                  // metadata only
  }
}

TEST_CASE("anEndForAnIncidentNoLongerStoredIsNotStored", "[rewrite]") {
  TempDir dir;
  StderrCapture log;
  IncidentStore store({.dir = dir.path()});
  IncidentFileSink sink(store, [] { return make_metadata(); });
  CHECK(sink.revise(end_at(kT0, 1min), store::Snapshot{}) == model::RevisionOutcome::not_stored);
}
