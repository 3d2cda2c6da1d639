#include "flightrec/replay/session.h"

#include <catch2/catch.hpp>

#include "flightrec/replay/screen.h"
#include "replay_fixture.h"

using namespace flightrec::replay;
using namespace flightrec::replay::testing;

namespace {

void type(Session& session, std::string_view text) {
  for (const char c : text) session.handle_key(c);
}

int64_t offset(const Session& session) {
  return session.model().timeline().time(session.cursor()) - kStartNs;
}

}  // namespace

TEST_CASE("bracketsStepOneSampleAndBracesOneSecond", "[replay][session]") {
  const Model model(fixture(), fixture_users());
  Session session(model, 0, Tab::processes, 1'000'000'000);
  session.handle_key(']');
  CHECK(offset(session) == kRateNs);
  session.handle_key('}');
  CHECK(offset(session) == kRateNs + 1'000'000'000);
  session.handle_key('[');
  CHECK(offset(session) == 1'000'000'000);
  session.handle_key('{');
  CHECK(offset(session) == 0);
  session.handle_key('[');
  CHECK(offset(session) == 0);  // clamped at the start
  session.handle_key(keys::kEnd);
  CHECK(offset(session) == 3'000'000'000);
  session.handle_key(keys::kHome);
  CHECK(offset(session) == 0);
}

TEST_CASE("theTableFollowsTheCursor", "[replay][session]") {
  const Model model(fixture(), fixture_users());
  Session session(model, 0, Tab::processes, 1'000'000'000);
  CHECK(session.table().rows.size() == 7);
  session.handle_key('}');
  session.handle_key('}');
  session.handle_key('[');  // 1.99 s: the frame of 1.75 s, where pid 203 has exited
  const auto& rows = session.table().rows;
  CHECK(std::any_of(rows.begin(), rows.end(), [](const Row& r) { return r.pid == 203; }));
  session.handle_key(keys::kEnd);
  CHECK(session.table().rows.front().pid == 202);
}

TEST_CASE("sortKeysChangeTheOrder", "[replay][session]") {
  const Model model(fixture(), fixture_users());
  Session session(model, model.timeline().size() - 1, Tab::processes, 1'000'000'000);
  CHECK(session.table().rows.front().pid == 202);
  session.handle_key('M');
  CHECK(session.table().rows.front().pid == 201);
  session.handle_key('I');
  CHECK(session.table().rows.front().pid == 2);  // smallest RSS first
  session.handle_key('P');
  CHECK(session.table().rows.front().pid == 202);
  const size_t before = session.sort_column();
  session.handle_key('>');
  CHECK(session.sort_column() == before + 1);
  session.handle_key(keys::kF6);
  CHECK(session.sort_column() == before + 2);
  session.handle_key('<');
  CHECK(session.sort_column() == before + 1);
}

TEST_CASE("tabSwitchesTabsAndEachKeepsItsSort", "[replay][session]") {
  const Model model(fixture(), fixture_users());
  Session session(model, model.timeline().size() - 1, Tab::processes, 1'000'000'000);
  session.handle_key('M');
  session.handle_key(keys::kTab);
  CHECK(session.tab() == Tab::network);
  CHECK(session.table().rows.front().pid == 300);
  session.handle_key(keys::kBackTab);
  CHECK(session.tab() == Tab::processes);
  CHECK(session.table().rows.front().pid == 201);
  for (size_t i = 0; i < std::size(kTabs); ++i) session.handle_key(keys::kTab);
  CHECK(session.tab() == Tab::processes);
}

TEST_CASE("searchSelectsTheNextMatchingRow", "[replay][session]") {
  const Model model(fixture(), fixture_users());
  Session session(model, model.timeline().size() - 1, Tab::processes, 1'000'000'000);
  session.handle_key('/');
  CHECK(session.mode() == Mode::search);
  type(session, "nginx");
  session.handle_key(keys::kEnter);
  CHECK(session.mode() == Mode::normal);
  CHECK(session.table().rows[session.selected()].pid == 300);
  session.handle_key(keys::kF3);
  type(session, "no such thing");
  session.handle_key(keys::kEnter);
  CHECK(session.message() == "no match for \"no such thing\"");
  CHECK(session.table().rows[session.selected()].pid == 300);
}

TEST_CASE("theSelectionFollowsItsProcessAcrossTime", "[replay][session]") {
  const Model model(fixture(), fixture_users());
  Session session(model, model.timeline().size() - 1, Tab::processes, 1'000'000'000);
  session.handle_key(keys::kDown);
  const int32_t pid = session.table().rows[session.selected()].pid;
  session.handle_key('{');
  session.handle_key('{');
  CHECK(session.table().rows[session.selected()].pid == pid);
}

TEST_CASE("filterPromptFiltersAsYouTypeAndEscapeClears", "[replay][session]") {
  const Model model(fixture(), fixture_users());
  Session session(model, model.timeline().size() - 1, Tab::processes, 1'000'000'000);
  session.handle_key('\\');
  type(session, "python");
  CHECK(session.table().rows.size() == 1);
  session.handle_key(keys::kEnter);
  CHECK(session.filter() == "python");
  session.handle_key(keys::kF4);
  session.handle_key(keys::kEscape);
  CHECK(session.filter().empty());
  CHECK(session.table().rows.size() == 7);
}

TEST_CASE("treeKeyTogglesTheTreeOnProcessesOnly", "[replay][session]") {
  const Model model(fixture(), fixture_users());
  Session session(model, model.timeline().size() - 1, Tab::processes, 1'000'000'000);
  session.handle_key('t');
  CHECK(session.tree());
  CHECK(session.table().rows.front().pid == 1);
  session.handle_key(keys::kF5);
  CHECK_FALSE(session.tree());
  session.handle_key(keys::kTab);
  session.handle_key('t');
  CHECK_FALSE(session.tree());
  CHECK(session.message() == "tree view is for the Processes tab");
}

TEST_CASE("goToAcceptsTimesAndReportsBadOnes", "[replay][session]") {
  const Model model(fixture(), fixture_users());
  Session session(model, 0, Tab::processes, 1'000'000'000);
  session.handle_key('g');
  type(session, "+1.5s");
  session.handle_key(keys::kEnter);
  CHECK(offset(session) == 1'500'000'000);
  session.handle_key('g');
  type(session, "later");
  session.handle_key(keys::kEnter);
  CHECK(offset(session) == 1'500'000'000);
  CHECK_THAT(session.message(), Catch::Contains("\"later\""));
}

TEST_CASE("iJumpsToTheTriggerPoint", "[replay][session]") {
  const Model model(fixture(), fixture_users());
  Session session(model, 0, Tab::processes, 1'000'000'000);
  session.handle_key('i');
  CHECK(offset(session) == kTriggerNs - kStartNs);
  CHECK_THAT(session.message(), Catch::Contains("memory_available_bytes < 2e9"));
}

TEST_CASE("spacePlaysAtTheChosenSpeedUntilTheEnd", "[replay][session]") {
  const Model model(fixture(), fixture_users());
  Session session(model, 0, Tab::processes, 1'000'000'000);
  CHECK_FALSE(session.advance(100'000'000));  // paused
  session.handle_key(' ');
  CHECK(session.playing());
  CHECK(session.advance(100'000'000));
  CHECK(offset(session) == 100'000'000);
  session.handle_key('+');
  CHECK(session.speed() == 2);
  session.advance(100'000'000);
  CHECK(offset(session) == 300'000'000);
  session.handle_key('-');
  session.handle_key('-');
  CHECK(session.speed() == 0.5);
  session.advance(10'000'000'000);
  CHECK(offset(session) == 3'000'000'000);
  CHECK_FALSE(session.playing());
}

TEST_CASE("rCyclesTheRateInterval", "[replay][session]") {
  const Model model(fixture(), fixture_users());
  Session session(model, model.timeline().size() - 1, Tab::processes, 1'000'000'000);
  session.handle_key('r');
  CHECK(session.interval_ns() == 0);
  CHECK(session.system().interval_ns == kRateNs);
  session.handle_key('r');
  CHECK(session.interval_ns() == 10'000'000);
}

TEST_CASE("helpShowsEveryKeyAndAnyKeyCloses", "[replay][session]") {
  const Model model(fixture(), fixture_users());
  Session session(model, 0, Tab::processes, 1'000'000'000);
  session.handle_key(keys::kF1);
  CHECK(session.mode() == Mode::help);
  std::string help;
  for (const auto& line : render_screen(session, 80, 24)) help += line.text + "\n";
  for (const char* key :
       {"F1",  "F3 /",     "F4 \\",      "F5 t",      "F6 > <",   "M P",         "[ ]",
        "{ }", "Home End", "space",      "+ -",       "g ",       "i ",          "r w",
        "Tab", "q ",       "Left Right", "C Enter x", "# cursor", "Period strip"}) {
    CHECK_THAT(help, Catch::Contains(key));
  }
  session.handle_key('x');
  CHECK(session.mode() == Mode::normal);
  session.handle_key('q');
  CHECK(session.quit());
}

TEST_CASE("aNewSortSelectsTheTopRowEvenWhenTheSelectedProcessMovedDown", "[replay][session]") {
  const Model model(fixture(), fixture_users());
  Session session(model, model.timeline().size() - 1, Tab::processes, 1'000'000'000);
  REQUIRE(session.selected() == 0);  // the CPU leader, which is not the memory leader
  session.handle_key('M');
  CHECK(session.selected() == 0);
  CHECK(session.table().rows[session.selected()].pid == 201);
}

TEST_CASE("aSearchWithoutMatchSaysSoWhileTypingAndAfter", "[replay][session]") {
  const Model model(fixture(), fixture_users());
  Session session(model, model.timeline().size() - 1, Tab::processes, 1'000'000'000);
  session.handle_key('/');
  type(session, "zz");
  CHECK_THAT(render_screen(session, 80, 24).back().text,
             Catch::StartsWith("Search: zz_   no match for \"zz\""));
  session.handle_key(keys::kEnter);
  CHECK_THAT(render_screen(session, 80, 24).back().text, Catch::StartsWith("no match for \"zz\""));
}

TEST_CASE("goToOutsideTheRecordingClampsAndSaysSo", "[replay][session]") {
  const Model model(fixture(), fixture_users());
  Session session(model, 100, Tab::processes, 1'000'000'000);
  session.handle_key('g');
  type(session, "+99s");
  session.handle_key(keys::kEnter);
  CHECK(offset(session) == 3'000'000'000);
  CHECK(session.message() ==
        "+99s (2025-11-30T05:01:39.000Z) is after the recording's end 2025-11-30T05:00:03.000Z: "
        "showing its end");
  session.handle_key('g');
  type(session, "1700000000");
  session.handle_key(keys::kEnter);
  CHECK(offset(session) == 0);
  CHECK_THAT(session.message(), Catch::Contains("is before the recording's start"));
  session.handle_key('g');
  type(session, "05:00:01.5");  // a time of day on the recording's date
  session.handle_key(keys::kEnter);
  CHECK(offset(session) == 1'500'000'000);
  CHECK(session.message().empty());
}

TEST_CASE("leftAndRightScrollTheTableSidewaysWithinItsWidth", "[replay][session]") {
  const Model model(fixture(), fixture_users());
  Session session(model, model.timeline().size() - 1, Tab::processes, 1'000'000'000);
  session.set_page_width(40);
  session.handle_key(keys::kLeft);
  CHECK(session.scroll_x() == 0);
  session.handle_key(keys::kRight);
  CHECK(session.scroll_x() == kSidewaysStep);
  const std::string header = render_screen(session, 40, 24)[7].text;
  CHECK_THAT(header, !Catch::Contains("PID"));  // scrolled off to the left
  for (int i = 0; i < 10; ++i) session.handle_key(keys::kRight);
  const size_t furthest = session.scroll_x();
  CHECK(furthest < 10 * kSidewaysStep);  // stops where the widest line ends at the edge
  bool any_text = false;
  for (const auto& line : render_screen(session, 40, 24)) {
    any_text = any_text || line.text.find_first_not_of(' ') != std::string::npos;
  }
  CHECK(any_text);
  session.handle_key(keys::kTab);
  CHECK(session.scroll_x() == 0);
}
