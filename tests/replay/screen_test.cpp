#include "flightrec/replay/screen.h"

#include <catch2/catch.hpp>

#include "replay_fixture.h"

using namespace flightrec::replay;
using namespace flightrec::replay::testing;

namespace {

std::string screen_text(const Session& session, size_t width, size_t height) {
  std::string text;
  for (const auto& line : render_screen(session, width, height)) text += line.text + "\n";
  return text;
}

}  // namespace

TEST_CASE("screenFillsExactlyTheTerminalAtAnySize", "[replay][screen]") {
  const Model model(fixture(), fixture_users());
  Session session(model, model.timeline().size() - 1, Tab::processes, 1'000'000'000);
  for (const auto& [width, height] :
       std::vector<std::pair<size_t, size_t>>{{80, 24}, {132, 50}, {40, 10}, {20, 5}, {1, 1}}) {
    const auto lines = render_screen(session, width, height);
    CHECK(lines.size() == height);
    for (const auto& line : lines) CHECK(line.text.size() <= width);
  }
}

TEST_CASE("headerShowsMetersWithTheirNumbers", "[replay][screen]") {
  const Model model(fixture(), fixture_users());
  Session session(model, model.timeline().size() - 1, Tab::processes, 1'000'000'000);
  const auto lines = render_screen(session, 80, 24);
  // Per-CPU bars: '|' runs and the percentage, not colour alone.
  CHECK_THAT(lines[0].text, Catch::StartsWith("  0[|||"));
  CHECK_THAT(lines[0].text, Catch::Contains("75.0%]"));
  CHECK_THAT(lines[0].text, Catch::Contains("100.0%]"));
  REQUIRE_FALSE(lines[0].bars.empty());
  CHECK_THAT(lines[1].text, Catch::StartsWith("Mem[|"));
  CHECK_THAT(lines[1].text, Catch::Contains("/4.0G]"));
  CHECK_THAT(lines[1].text, Catch::Contains("Load average: 3.50 0.40 0.30"));
  CHECK_THAT(lines[2].text, Catch::Contains("PSI some: mem 25.0%"));
  CHECK_THAT(lines[3].text, Catch::Contains("Disk R 3.9M/s"));
}

TEST_CASE("timelineMarksTheCursorAndTheTrigger", "[replay][screen]") {
  const Model model(fixture(), fixture_users());
  Session session(model, 0, Tab::processes, 1'000'000'000);
  const auto strip = [&] { return render_screen(session, 80, 24)[4].text; };
  CHECK(strip().find('#') == 1);
  CHECK(strip().find('!') == 1 + 51);  // 2 s of 3 s: column 51 of 0..77
  session.handle_key(keys::kEnd);
  CHECK(strip().find('#') == 78);
  CHECK_THAT(render_screen(session, 80, 24)[5].text,
             Catch::StartsWith("2025-11-30T05:00:03.000Z +3.000s/3s"));
}

TEST_CASE("tabsSortColumnAndSelectionAreMarkedInText", "[replay][screen]") {
  const Model model(fixture(), fixture_users());
  Session session(model, model.timeline().size() - 1, Tab::processes, 1'000'000'000);
  std::string text = screen_text(session, 80, 24);
  CHECK_THAT(text, Catch::Contains("[Processes] Network "));
  CHECK_THAT(text, Catch::Contains("CPU%v"));
  session.handle_key('I');
  CHECK_THAT(screen_text(session, 80, 24), Catch::Contains("CPU%^"));
  session.handle_key(keys::kTab);
  text = screen_text(session, 80, 24);
  CHECK_THAT(text, Catch::Contains("Processes [Network] Connections"));
  CHECK_THAT(text, Catch::Contains("XMIT_PK"));
  const auto lines = render_screen(session, 80, 24);
  CHECK(std::count_if(lines.begin(), lines.end(),
                      [](const ScreenLine& l) { return l.style == LineStyle::selected; }) == 1);
}

TEST_CASE("promptsReplaceTheKeyBar", "[replay][screen]") {
  const Model model(fixture(), fixture_users());
  Session session(model, 0, Tab::processes, 1'000'000'000);
  session.handle_key('/');
  session.handle_key('x');
  CHECK_THAT(render_screen(session, 80, 24).back().text, Catch::StartsWith("Search: x_"));
}

TEST_CASE("manyCpusFoldIntoOneMeter", "[replay][screen]") {
  ReplayData data = fixture();
  auto cpus = data.meta.series;
  // 24 CPUs would take 12 rows at 80 columns: the header shows the total instead.
  for (int cpu = 2; cpu < 24; ++cpu) {
    auto extra = data.meta.series[0];
    extra.labels = {{"cpu", std::to_string(cpu)}, {"mode", "user"}};
    cpus.push_back(extra);
  }
  data.meta.series = cpus;  // the blocks hold fewer series: those read as absent
  const Model model(std::move(data), fixture_users());
  Session session(model, model.timeline().size() - 1, Tab::processes, 1'000'000'000);
  CHECK_THAT(render_screen(session, 80, 24)[0].text, Catch::StartsWith("CPU["));
  CHECK_THAT(render_screen(session, 80, 24)[0].text, Catch::Contains("of 24]"));
}

TEST_CASE("theStatusLineSaysWhatTheRatesCovered", "[replay][screen]") {
  const Model model(fixture(), fixture_users());
  const auto status = [&](size_t cursor, int64_t interval) {
    const Session session(model, cursor, Tab::processes, interval);
    return render_screen(session, 80, 24)[5].text;
  };
  CHECK_THAT(status(0, 1'000'000'000), Catch::Contains(" no rate "));
  CHECK_THAT(status(1, 1'000'000'000), Catch::Contains(" rate 10ms/1s "));  // 10 ms of 1 s
  CHECK_THAT(status(150, 1'000'000'000), Catch::Contains(" rate 1s "));
  CHECK_THAT(status(150, 0), Catch::Contains(" rate 10ms/sample "));
}
