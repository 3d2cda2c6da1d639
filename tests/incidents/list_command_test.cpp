#include "flightrec/incidents/list_command.h"

#include <catch2/catch.hpp>
#include <limits>
#include <sstream>

#include "incident_fixture.h"

using namespace flightrec::incidents;
using namespace incident_test;

TEST_CASE("flightrec incidents prints a table newest first and names corrupt files",
          "[incidents]") {
  TempDir dir;
  StderrCapture log;
  IncidentEntry older;
  IncidentEntry newer;
  {
    IncidentStore store({.dir = dir.path()});
    older = write_incident(store, "cpu_busy", 1000);
    newer = write_incident(store, "mem", 2000);
  }
  write_bytes(dir.path() / "20251130T050009.000Z-bad.flightrec", "garbage");
  std::ostringstream out;
  std::ostringstream err;
  REQUIRE(list_incidents_command(dir.path(), out, err) == 0);
  const std::string text = out.str();
  CHECK_THAT(text, Catch::Matchers::StartsWith("ID"));
  CHECK(text.find(newer.id) < text.find(older.id));
  CHECK_THAT(text, Catch::Matchers::Contains("2025-11-30T05:00:01.000Z"));
  CHECK_THAT(text, Catch::Matchers::Contains(std::to_string(older.bytes)));
  CHECK_THAT(text, Catch::Matchers::Contains("  93.0%  "));  // cpu_busy_ratio 0.93
  CHECK_THAT(text, Catch::Matchers::Contains(
                       "corrupt: " + (dir.path() / "20251130T050009.000Z-bad.flightrec").string()));
}

TEST_CASE("flightrec incidents shows a rule's condition and a manual request's reason",
          "[incidents]") {
  TempDir dir;
  StderrCapture log;
  {
    IncidentStore store({.dir = dir.path()});
    auto rule = make_info("cpu_busy", 1000);
    rule.condition = "cpu_busy_ratio{cpu=\"total\"} > 0.8";
    auto memory = make_info("mem_high", 1500);
    memory.series = "memory_used_bytes";
    memory.value = 2168508416;
    auto manual = make_info("manual", 2000);
    manual.reason = "during the deploy of v2.3 (canary, 10%)";
    manual.value = std::numeric_limits<double>::quiet_NaN();
    auto hostile = make_info("manual", 3000);
    hostile.reason = "evil\x1b[2Jreason";
    for (const auto& incident : {rule, memory, manual, hostile}) {
      store.write(incident, make_metadata(),
                  std::vector<std::shared_ptr<const flightrec::store::Block>>{make_block(10)});
    }
  }
  std::ostringstream out;
  std::ostringstream err;
  REQUIRE(list_incidents_command(dir.path(), out, err) == 0);
  const std::string text = out.str();
  CHECK_THAT(text, Catch::Matchers::Contains("STATUS   DETAIL\n"));
  CHECK_THAT(text,
             Catch::Matchers::StartsWith("ID                             KIND    RULE      "));
  CHECK_THAT(text, Catch::Matchers::Contains("-cpu_busy  rule    cpu_busy  "));
  CHECK_THAT(text, Catch::Matchers::Contains("-manual    manual  manual    "));
  // Values in the unit of their series; a manual request measured nothing.
  CHECK_THAT(text, Catch::Matchers::Contains("  2.02 GiB  2025-11-30T"));
  CHECK_THAT(text, Catch::Matchers::Contains("manual                 -  2025-11-30T"));
  CHECK_THAT(text, !Catch::Matchers::Contains("nan") && !Catch::Matchers::Contains("e+09"));
  CHECK_THAT(text, Catch::Matchers::Contains("written  cpu_busy_ratio{cpu=\"total\"} > 0.8\n"));
  CHECK_THAT(text, Catch::Matchers::Contains("written  during the deploy of v2.3 (canary, 10%)\n"));
  // User text never reaches the terminal raw.
  CHECK_THAT(text, Catch::Matchers::Contains("written  \"evil\\x1b[2Jreason\"\n"));
  CHECK(text.find('\x1b') == std::string::npos);
}

TEST_CASE("flightrec incidents fails naming a directory it cannot read", "[incidents]") {
  TempDir dir;
  std::ostringstream out;
  std::ostringstream err;
  CHECK(list_incidents_command(dir.path() / "missing", out, err) == 1);
  CHECK_THAT(err.str(), Catch::Matchers::Contains((dir.path() / "missing").string()));
  CHECK(out.str().empty());
}

TEST_CASE("flightrec incidents writes the directory's and the files' names as printable text",
          "[incidents]") {
  TempDir parent;
  const auto dir = parent.path() / "in\x1b[1mcidents\xff";
  std::filesystem::create_directory(dir);
  write_bytes(dir / "20251130T050009.000Z-bad.flightrec", "garbage");
  std::filesystem::create_symlink("/etc/passwd", dir / "20251130T050010.000Z-link.flightrec");
  std::ostringstream out;
  std::ostringstream err;
  CHECK(list_incidents_command(dir, out, err) == 0);
  const std::string shown = parent.path().string() + "/in\\x1b[1mcidents\\xff/";
  CHECK_THAT(out.str(), Catch::Matchers::Contains("\ncorrupt: " + shown +
                                                  "20251130T050009.000Z-bad.flightrec: "));
  CHECK_THAT(out.str(), Catch::Matchers::Contains(
                            "\nskipped: " + shown +
                            "20251130T050010.000Z-link.flightrec: a symbolic link, not a regular "
                            "file\n"));
  CHECK(out.str().find('\x1b') == std::string::npos);
  std::ostringstream missing_out;
  std::ostringstream missing_err;
  CHECK(list_incidents_command(dir / "missing", missing_out, missing_err) == 1);
  CHECK_THAT(missing_err.str(), Catch::Matchers::StartsWith(shown + "missing: "));
}

namespace {

// An Alertmanager alert as the receiver stores it (trigger/alert_receiver.cpp).
flightrec::model::IncidentDescription alert_info(int64_t fired_offset_ms) {
  auto alert = make_info("alert", fired_offset_ms);
  alert.condition = "alertmanager alert";
  alert.series = "HighLoad{instance=\"web-1\",severity=\"critical\"}";
  alert.reason = "CPU above 90% on web-1";
  alert.details = {{"alert.source", "alertmanager"},
                   {"alert.status", "firing"},
                   {"alert.generator_url", "http://prometheus:9090/graph?g0.expr=up"},
                   {"alert.label.alertname", "HighLoad"},
                   {"alert.label.instance", "web-1"},
                   {"alert.label.severity", "critical"},
                   {"alert.annotation.description", "load 12.5 for 5m\nsee the runbook"},
                   {"alert.annotation.summary", "CPU above 90% on web-1"}};
  return alert;
}

}  // namespace

TEST_CASE("flightrec incidents names an alert by alertname, severity and summary", "[incidents]") {
  TempDir dir;
  StderrCapture log;
  {
    IncidentStore store({.dir = dir.path()});
    auto oom = make_info("oom_kill", 2000);
    oom.condition = "oom_kills_per_second > 0";
    oom.details = {{"oom.victim_pid", "468"}, {"oom.victim_command", "python3"}};
    for (const auto& incident : {alert_info(1000), oom}) {
      store.write(incident, make_metadata(),
                  std::vector<std::shared_ptr<const flightrec::store::Block>>{make_block(10)});
    }
  }
  std::ostringstream out;
  std::ostringstream err;
  REQUIRE(list_incidents_command(dir.path(), out, err) == 0);
  const std::string text = out.str();
  CHECK_THAT(text,
             Catch::Matchers::Contains("written  HighLoad (critical): CPU above 90% on web-1\n"));
  CHECK_THAT(text,
             Catch::Matchers::Contains("written  oom_kills_per_second > 0, killed 468 python3\n"));
  // The KIND column, as wide as its longest name.
  CHECK_THAT(text, Catch::Matchers::StartsWith("ID                             KIND      RULE  "));
  CHECK_THAT(text, Catch::Matchers::Contains("-oom_kill  oom_kill  oom_kill  "));
  CHECK_THAT(text, Catch::Matchers::Contains("-alert     alert     alert     "));
}
