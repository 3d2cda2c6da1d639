#include <catch2/catch.hpp>
#include <sstream>
#include <vector>

#include "flightrec/snapshot/render.h"
#include "snapshot_fixture.h"

using flightrec::snapshot::ProcessOrder;
using flightrec::snapshot::render_text;

namespace {

// The lines of the process table: its header and one row per process.
std::vector<std::string> process_rows(const std::string& text) {
  std::istringstream in(text.substr(text.find("\nPROCESSES")));
  std::vector<std::string> rows;
  std::string line;
  std::getline(in, line);  // blank
  std::getline(in, line);  // section title
  while (std::getline(in, line) && !line.empty()) rows.push_back(line);
  return rows;
}

int32_t pid_of(const std::string& row) { return std::stoi(row); }

}  // namespace

TEST_CASE("render_text starts with the time, host and kernel", "[render_text]") {
  const std::string text = render_text(flightrec::test::FixtureSnapshot().take());
  CHECK_THAT(text, Catch::Matchers::StartsWith("flightrec snapshot at 2026-11-30T17:33:20.250Z\n"
                                               "host vm  kernel 6.18.44-fc-v657"));
  CHECK_THAT(text, Catch::Matchers::Contains("cpu_seconds_total{cpu=\"0\",mode=\"user\"}"));
  CHECK_THAT(text, Catch::Matchers::Contains("disk_read_bytes_total{device=\"vda\"}"));
  CHECK_THAT(text, Catch::Matchers::Contains("90.36 seconds"));
}

TEST_CASE("render_text sorts processes by CPU time, largest first", "[render_text]") {
  const auto rows = process_rows(render_text(flightrec::test::FixtureSnapshot().take()));
  REQUIRE(rows.size() == 9);
  CHECK_THAT(rows[0], Catch::Matchers::Contains("PID") && Catch::Matchers::Contains("COMMAND"));
  CHECK(pid_of(rows[1]) == 5384);  // 0.07 s
  CHECK(pid_of(rows[2]) == 5383);  // 0.05 s
  CHECK(pid_of(rows[3]) == 5198);  // 0.04 s
  CHECK_THAT(rows[1], Catch::Matchers::Contains("0:00.07"));
}

TEST_CASE("render_text sorts processes by resident memory when asked", "[render_text]") {
  const auto rows =
      process_rows(render_text(flightrec::test::FixtureSnapshot().take(), ProcessOrder::rss));
  REQUIRE(rows.size() == 9);
  CHECK(pid_of(rows[1]) == 5383);  // 13812 KiB
  CHECK(pid_of(rows[2]) == 5384);  // 13800 KiB
  CHECK(pid_of(rows[3]) == 5198);  // 13520 KiB
  CHECK_THAT(rows[1], Catch::Matchers::Contains(" 13812 "));
}

TEST_CASE("render_text aligns the columns of every row", "[render_text]") {
  const auto rows = process_rows(render_text(flightrec::test::FixtureSnapshot().take()));
  const size_t command = rows[0].find("COMMAND");
  const size_t rss_end = rows[0].find("RSS_KiB") + std::string("RSS_KiB").size();
  for (const std::string& row : rows) {
    INFO(row);
    CHECK(row[command - 1] == ' ');
    CHECK(row[command] != ' ');
    CHECK(row[rss_end - 1] != ' ');
    CHECK(row[rss_end] == ' ');
  }
}

TEST_CASE("render_text shows kernel threads in brackets and zombies as defunct", "[render_text]") {
  const std::string text = render_text(flightrec::test::FixtureSnapshot().take());
  CHECK_THAT(text, Catch::Matchers::Contains("[kthreadd]\n"));
  CHECK_THAT(text, Catch::Matchers::Contains("[sleep] <defunct>\n"));
  CHECK_THAT(text, Catch::Matchers::Contains("sleep 1001\n"));
}

TEST_CASE("render_text never passes control characters to the terminal", "[render_text]") {
  auto snapshot = flightrec::test::FixtureSnapshot().take();
  snapshot.processes.back().cmdline.clear();  // shows pid 5384's comm, which holds ESC and '\n'
  snapshot.processes[1].cmdline =
      "evil \xc2\x9b"
      "31m \x7f tail";  // C1 CSI and DEL
  const std::string text = render_text(snapshot);
  CHECK(text.find('\x1b') == std::string::npos);
  CHECK(text.find('\x7f') == std::string::npos);
  CHECK(text.find("\xc2\x9b") == std::string::npos);
  CHECK_THAT(text, Catch::Matchers::Contains("[esc?[31m?red]"));
  CHECK_THAT(text, Catch::Matchers::Contains("evil ?31m ? tail"));
}

// People read the text: a value in hundredths keeps two decimals at most. The JSON, for machines,
// keeps the double exactly (render_json_test).
TEST_CASE("render_text writes a scaled value with the decimals its unit has", "[render_text]") {
  flightrec::snapshot::Snapshot shot;
  shot.system.push_back({.name = "cpu_seconds_total",
                         .labels = {{"cpu", "0"}, {"mode", "user"}},
                         .unit = "seconds",
                         .raw = 88306,
                         .scale = 0.01});
  shot.system.push_back({.name = "load1", .unit = "", .raw = 70, .scale = 0.01});
  const std::string text = render_text(shot);
  CHECK_THAT(text, Catch::Matchers::Contains(" 883.06 seconds\n"));
  CHECK_THAT(text, Catch::Matchers::Contains(" 0.7\n"));
  CHECK_THAT(text, !Catch::Matchers::Contains("0000000"));
}
