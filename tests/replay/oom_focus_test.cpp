// An OOM incident in replay: the cursor goes to the kill (oom.killed_at_ns, not the firing), the
// victim's row is selected in the Processes tab, and when no process frame at the kill holds the
// victim, or the kernel named none, the message bar says so.
#include <catch2/catch.hpp>

#include "flightrec/model/incident_description.h"
#include "flightrec/replay/model.h"
#include "flightrec/replay/session.h"
#include "replay_fixture.h"

using namespace flightrec;
using namespace flightrec::replay;
using namespace flightrec::replay::testing;

namespace {

constexpr int64_t kKillNs = kStartNs + 1'900'000'000;

// The fixture recording as an OOM incident fired at its trigger; `details` as the namer adds them.
Model oom_model(recording::Labels details) {
  model::IncidentDescription incident{.kind = model::IncidentKind::oom_kill,
                                      .rule = "oom_kill",
                                      .condition = "oom_kills_per_second > 0",
                                      .value = 250,
                                      .fired_at_ns = kTriggerNs,
                                      .details = std::move(details)};
  ReplayData data = fixture();
  data.meta.extra.clear();
  model::encode_incident(incident, data.meta.extra);
  return Model(std::move(data), fixture_users());
}

recording::Labels killed(int32_t pid, std::string command, int64_t at_ns) {
  return {{"oom.victim_pid", std::to_string(pid)},
          {"oom.victim_command", std::move(command)},
          {"oom.killed_at_ns", std::to_string(at_ns)}};
}

// What run_replay does without --at: the cursor on the trigger's focus, the victim selected.
Session opened(const Model& model, Tab tab = Tab::processes) {
  REQUIRE(model.triggers().size() == 1);
  Session session(model, model.timeline().at_or_before(model.triggers()[0].focus_ns), tab,
                  1'000'000'000);
  session.select_victim(model.triggers()[0]);
  return session;
}

int32_t selected_pid(const Session& session) {
  return session.table().rows.at(session.selected()).pid;
}

}  // namespace

TEST_CASE("anOomIncidentOpensAtTheKillWithTheVictimSelected", "[replay][oom]") {
  const Model model(oom_model(killed(201, "python3", kKillNs)));
  CHECK(model.triggers()[0].time_ns == kTriggerNs);
  CHECK(model.triggers()[0].focus_ns == kKillNs);
  const Session session = opened(model);
  CHECK(model.timeline().time(session.cursor()) == kKillNs);
  CHECK(session.tab() == Tab::processes);
  // pid 201 is not the first row by the default sort (CPU): it was looked for.
  REQUIRE(session.table().rows.front().pid != 201);
  CHECK(selected_pid(session) == 201);
  CHECK(session.message() == "OOM kill: victim 201 python3 selected");
}

TEST_CASE("theTriggerKeyGoesToTheKillAndSelectsTheVictimFromAnyTabAndFilter", "[replay][oom]") {
  const Model model(oom_model(killed(201, "python3", kKillNs)));
  Session session(model, 0, Tab::network, 1'000'000'000);
  session.set_filter("nginx");
  session.handle_key('i');
  CHECK(model.timeline().time(session.cursor()) == kKillNs);
  CHECK(session.tab() == Tab::processes);
  CHECK(session.filter().empty());
  CHECK(selected_pid(session) == 201);
  CHECK_THAT(session.message(),
             Catch::StartsWith("OOM kill: victim 201 python3 selected; trigger: oom_kill: "));
}

TEST_CASE("aVictimNoProcessFrameHoldsIsSaidSo", "[replay][oom]") {
  // pid 203 lived from 1.25 s to 1.75 s: the frame at 2 s, the last before this kill, lacks it.
  const Model model(oom_model(killed(203, "make", kStartNs + 2'100'000'000)));
  const Session session = opened(model);
  CHECK(model.timeline().time(session.cursor()) == kStartNs + 2'100'000'000);
  CHECK(session.message() ==
        "OOM kill: victim 203 make is in no process frame at the kill (it lived between two "
        "process ticks, or the process tier was off)");
}

TEST_CASE("anOomIncidentWithoutAVictimOpensAtTheFiringAndSaysSo", "[replay][oom]") {
  const Model model(oom_model({{"oom.victim", "unknown: no kill in the kernel log"}}));
  const Session session = opened(model);
  CHECK(model.timeline().time(session.cursor()) == kTriggerNs);
  CHECK(session.message() == "OOM kill: no source named the victim");
}

TEST_CASE("otherTriggersSelectNothing", "[replay][oom]") {
  const Model model(fixture(), fixture_users());
  REQUIRE(model.triggers().size() == 1);
  CHECK_FALSE(model.triggers()[0].oom_kill);
  Session session(model, 0, Tab::network, 1'000'000'000);
  session.select_victim(model.triggers()[0]);
  CHECK(session.tab() == Tab::network);
  CHECK(session.message().empty());
}
