// OomVictimNamer in front of a sink: an oom_kill incident gets its victim from a kernel log (here
// a file the test appends fixture records to, as the kernel appends to /dev/kmsg), any other
// incident passes untouched, and a log that cannot be read or holds no kill says so.
#include "flightrec/trigger/oom_victims.h"

#include <time.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "flightrec/common/clock.h"
#include "flightrec/trigger/builtin_rules.h"
#include "temp_dir.h"

using namespace flightrec::trigger;
using flightrec::sampler::oom::KernelLog;

namespace {

// The fixture's kill: its kernel log time, in µs since boot.
constexpr int64_t kKillKernelUs = 36815667033;

struct Recorded final : IncidentSink {
  std::vector<IncidentCapture> written;
  void write(const IncidentCapture& incident, flightrec::store::Snapshot) override {
    written.push_back(incident);
  }
};

int64_t kill_unix_ns() {
  return kKillKernelUs * 1000 + flightrec::clock_ns(CLOCK_REALTIME) -
         flightrec::clock_ns(CLOCK_MONOTONIC);
}

IncidentCapture oom_incident(int64_t fired_at_ns) {
  IncidentCapture capture;
  capture.description.rule = std::string(kOomKillRule);
  capture.description.fired_at_ns = fired_at_ns;
  capture.description.window_from_ns = fired_at_ns - 60'000'000'000;
  capture.description.window_to_ns = fired_at_ns + 5'000'000'000;
  return capture;
}

std::string detail(const IncidentCapture& capture, std::string_view key) {
  for (const auto& [k, v] : capture.description.details) {
    if (k == key) return v;
  }
  return "(none)";
}

void append_fixture(const std::filesystem::path& log) {
  std::ifstream fixture(flightrec::testing::fixture_path("kmsg/memcg_oom.records"));
  std::stringstream records;
  records << fixture.rdbuf();
  std::ofstream(log, std::ios::app) << records.str();
}

}  // namespace

TEST_CASE("An oom_kill incident names the victim the kernel logged within its window",
          "[trigger][oom]") {
  const flightrec::testing::TempDir dir;
  const auto path = dir.write("kmsg", "6,1,100,-;an earlier record, before the daemon started\n");
  KernelLog log(path);
  REQUIRE(log.error().empty());
  append_fixture(path);
  Recorded sink;
  OomVictimNamer namer(sink, log);
  namer.write(oom_incident(kill_unix_ns() + 20'000'000), {});
  REQUIRE(sink.written.size() == 1);
  const IncidentCapture& named = sink.written[0];
  CHECK(detail(named, "oom.victim_pid") == "468");
  CHECK(detail(named, "oom.victim_command") == "python3");
  CHECK(detail(named, "oom.constraint") == "CONSTRAINT_MEMCG");
  CHECK(detail(named, "oom.cgroup_limit_bytes") == std::to_string(65536 * 1024));
  CHECK(detail(named, "oom.victim_rss_bytes") == std::to_string((65152 + 6688) * 1024));
  // The log's clock turned into Unix time at the read: the same offset as here, to a millisecond.
  CHECK(std::llabs(std::stoll(detail(named, "oom.killed_at_ns")) - kill_unix_ns()) < 1'000'000);
  CHECK(detail(named, "oom.kills_in_window") == "1");

  // The kill stays known for a later incident whose window holds it; one whose window does not
  // says that the log had none.
  namer.write(oom_incident(kill_unix_ns() + 1'000'000'000), {});
  CHECK(detail(sink.written[1], "oom.victim_pid") == "468");
  namer.write(oom_incident(kill_unix_ns() - 10'000'000'000), {});
  CHECK(detail(sink.written[2], "oom.victim") ==
        "unknown: no kill in the kernel log within the window");
}

TEST_CASE("Other incidents pass untouched; an unreadable log is named", "[trigger][oom]") {
  KernelLog missing("/nonexistent/kmsg");
  CHECK(missing.error() == "/nonexistent/kmsg: No such file or directory");
  Recorded sink;
  OomVictimNamer namer(sink, missing);
  IncidentCapture manual;
  manual.description.rule = "manual";
  manual.description.reason = "deploy";
  namer.write(manual, {});
  const auto& passed = sink.written.at(0).description;
  CHECK(passed.rule == "manual");
  CHECK(passed.reason == "deploy");
  CHECK(passed.details.empty());
  namer.write(oom_incident(kill_unix_ns()), {});
  CHECK(detail(sink.written.at(1), "oom.victim") ==
        "unknown: /nonexistent/kmsg: No such file or directory");
}
