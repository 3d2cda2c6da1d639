#include "flightrec/replay/options.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "flightrec/common/flags.h"
#include "flightrec/replay/table.h"

using namespace flightrec::replay;
namespace flags = flightrec::flags;

namespace {

flightrec::Result<ReplayArgs> parse(std::vector<std::string_view> args) {
  return parse_replay_args(args);
}

}  // namespace

TEST_CASE("replayArgsTakeASourceAndBatchFlags", "[replay][options]") {
  const auto parsed =
      parse({"incident.fltrec", "--batch", "--at", "+2.5s", "--tab=network", "--sort", "MEM%",
             "--format=json", "--interval=100ms", "--tree", "--filter", "nginx", "--reverse"});
  REQUIRE(parsed);
  const ReplayOptions& o = parsed->options;
  CHECK(o.source == "incident.fltrec");
  CHECK(o.batch);
  CHECK(o.at == "+2.5s");
  CHECK(o.tab == Tab::network);
  CHECK(o.sort == "MEM%");
  CHECK(o.format == BatchFormat::json);
  CHECK(o.interval_ns == 100'000'000);
  CHECK(o.tree);
  CHECK(o.reverse);
  CHECK(o.filter == "nginx");
}

TEST_CASE("growSpanTakesADurationOrAll", "[replay][options][rgrow]") {
  CHECK(parse({"a"})->options.grow_span_ns == kDefaultGrowSpanNs);
  CHECK(parse({"a", "--grow-span", "1m"})->options.grow_span_ns == 60'000'000'000);
  CHECK(parse({"a", "--grow-span=250ms"})->options.grow_span_ns == 250'000'000);
  CHECK(parse({"a", "--grow-span=all"})->options.grow_span_ns == kWholeRecording);
  for (const std::string_view bad : {"soon", "0s", "sample", "-1s"}) {
    const auto parsed = parse({"a", "--grow-span", bad});
    REQUIRE_FALSE(parsed);
    CHECK_THAT(parsed.error(), Catch::StartsWith("--grow-span: \"" + std::string(bad) + "\""));
  }
}

TEST_CASE("replayArgsDefaultToTheInteractiveProcessesView", "[replay][options]") {
  const auto parsed = parse({"http://127.0.0.1:9717/incidents/x"});
  REQUIRE(parsed);
  CHECK_FALSE(parsed->options.batch);
  CHECK(parsed->options.tab == Tab::processes);
  CHECK(parsed->options.interval_ns == kDefaultIntervalNs);
}

TEST_CASE("replayTabHelpNamesEveryTabOfTheTable", "[replay][options]") {
  ReplayOptions options;
  const auto flags = replay_flags(options);
  const auto tab = std::find_if(flags.begin(), flags.end(),
                                [](const flags::Flag& flag) { return flag.name == "--tab"; });
  REQUIRE(tab != flags.end());
  for (const TabNames& names : kTabNames) {
    CHECK_THAT(std::string(tab->help), Catch::Contains(std::string(names.name)));
    CHECK_THAT(parse({"a", "--tab=disks"}).error(), Catch::Contains(std::string(names.name)));
    CHECK(parse({"a", "--tab=" + std::string(names.name)})->options.tab == names.tab);
  }
}

TEST_CASE("replayArgsErrorsNameTheFlagOrValue", "[replay][options]") {
  CHECK(parse({}).error() == "replay needs a SOURCE (a recording file or an http(s):// URL)");
  CHECK(parse({"a", "b"}).error() == "unexpected argument \"b\"");
  CHECK(parse({"a", "--tab=disks"}).error() ==
        "--tab: \"disks\" is not one of processes, network, connections, listening, sessions, "
        "containers");
  CHECK(parse({"a", "--batch", "--format=xml"}).error() == "--format: \"xml\" is not text or json");
  CHECK(parse({"a", "--format=json"}).error() == "--format only applies with --batch");
  CHECK(parse({"a", "--at"}).error() == "flag --at needs a value");
  CHECK(parse({"a", "--batch=yes"}).error() == "--batch takes no value");
  CHECK(parse({"a", "--speed=2"}).error() == "unknown flag --speed (see flightrec replay --help)");
  CHECK(parse({"a", "--intervall=1s"}).error() ==
        "unknown flag --intervall; did you mean --interval? (see flightrec replay --help)");
  CHECK_THAT(parse({"a", "--interval=soon"}).error(), Catch::StartsWith("--interval: \"soon\""));
  CHECK(parse({"a", "--help"})->help);
  CHECK_THAT(replay_usage(), Catch::Contains("--batch"));
}
