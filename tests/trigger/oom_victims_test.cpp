// OomVictimNamer in front of a sink: an oom_kill incident gets its victim from a kernel log (here
// a file the test appends fixture records to, as the kernel appends to /dev/kmsg), any other
// incident passes untouched, and a log that cannot be read or holds no kill says so.
#include "flightrec/trigger/oom_victims.h"

#include <time.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "container_fixture.h"
#include "flightrec/common/clock.h"
#include "flightrec/store/process_block.h"
#include "flightrec/trigger/builtin_rules.h"
#include "temp_dir.h"

using namespace flightrec::trigger;
using flightrec::trigger::oom::KernelLog;
namespace model = flightrec::model;

namespace {

// The fixture's kill: its kernel log time, in µs since boot.
constexpr int64_t kKillKernelUs = 36815667033;

struct Recorded final : model::IncidentSink {
  std::vector<model::IncidentCapture> written;
  model::WriteOutcome write(const model::IncidentCapture& incident,
                            flightrec::store::Snapshot) override {
    written.push_back(incident);
    return model::WriteOutcome::written;
  }
};

int64_t kill_unix_ns() {
  return kKillKernelUs * 1000 + flightrec::clock_ns(CLOCK_REALTIME) -
         flightrec::clock_ns(CLOCK_MONOTONIC);
}

model::IncidentCapture oom_incident(int64_t fired_at_ns) {
  model::IncidentCapture capture;
  capture.description.kind = flightrec::model::IncidentKind::oom_kill;
  capture.description.rule = std::string(kOomKillRule);
  capture.description.fired_at_ns = fired_at_ns;
  capture.description.window_from_ns = fired_at_ns - 60'000'000'000;
  capture.description.window_to_ns = fired_at_ns + 5'000'000'000;
  return capture;
}

std::string detail(const model::IncidentCapture& capture, std::string_view key) {
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

using flightrec::process::ProcessFrame;
using flightrec::process::ProcessRow;

ProcessFrame process_frame(int64_t at_ns, std::vector<std::pair<int32_t, uint64_t>> pid_rss) {
  ProcessFrame frame;
  frame.time_unix_ns = at_ns;
  for (const auto& [pid, rss] : pid_rss) {
    ProcessRow row;
    row.pid = pid;
    row.comm = pid == 468 ? "python3" : "proc" + std::to_string(pid);
    row.rss_bytes = rss;
    frame.processes.push_back(row);
  }
  return frame;
}

// Process blocks around the fixture's kill: the victim (468) grows until the kill, a bigger
// process (900) starts only after it.
ProcessBlocksSource blocks_around_kill(int64_t kill, bool with_victim) {
  const uint64_t mib = 1 << 20;
  std::vector<ProcessFrame> frames = {
      process_frame(kill - 120'000'000'000, {{1, 90 * mib}, {468, 400 * mib}}),  // before window
      process_frame(kill - 750'000'000, {{1, 9 * mib}, {300, 20 * mib}, {468, 30 * mib}}),
      process_frame(kill - 500'000'000, {{1, 9 * mib}, {300, 20 * mib}, {468, 60 * mib}}),
      process_frame(kill - 250'000'000, {{1, 9 * mib}, {300, 20 * mib}, {468, 62 * mib}}),
      process_frame(kill + 250'000'000, {{1, 9 * mib}, {300, 20 * mib}, {900, 800 * mib}})};
  if (!with_victim) {
    for (auto& frame : frames) std::erase_if(frame.processes, [](auto& r) { return r.pid == 468; });
  }
  auto first = flightrec::store::ProcessBlock::encode(std::span(frames).first(2));
  auto second = flightrec::store::ProcessBlock::encode(std::span(frames).subspan(2));
  return [=] { return std::vector{first, second}; };
}

}  // namespace

TEST_CASE("An OOM incident holds the top consumers at the kill and the victim's recorded RSS",
          "[trigger][oom]") {
  const flightrec::testing::TempDir dir;
  const auto path = dir.write("kmsg", "");
  KernelLog log(path);
  append_fixture(path);
  Recorded sink;
  const int64_t kill = kill_unix_ns();
  OomVictimNamer namer(sink, log, blocks_around_kill(kill, true));
  namer.write(oom_incident(kill + 20'000'000), {});
  const model::IncidentCapture& named = sink.written.at(0);
  const uint64_t mib = 1 << 20;
  CHECK(detail(named, "oom.top_rss_at_ns") == std::to_string(kill - 250'000'000));
  CHECK(detail(named, "oom.top_rss.1") ==
        "pid=468 rss_bytes=" + std::to_string(62 * mib) + " comm=python3");
  CHECK(detail(named, "oom.top_rss.2") ==
        "pid=300 rss_bytes=" + std::to_string(20 * mib) + " comm=proc300");
  CHECK(detail(named, "oom.top_rss.3") ==
        "pid=1 rss_bytes=" + std::to_string(9 * mib) + " comm=proc1");
  CHECK(detail(named, "oom.top_rss.4") == "(none)");
  // The frame two minutes before the firing is outside the window: its 400 MiB is no peak.
  CHECK(detail(named, "oom.victim_rss_samples") == "3");
  CHECK(detail(named, "oom.victim_last_rss_bytes") == std::to_string(62 * mib));
  CHECK(detail(named, "oom.victim_peak_rss_bytes") == std::to_string(62 * mib));
  CHECK(detail(named, "oom.victim_peak_rss_at_ns") == std::to_string(kill - 250'000'000));
  CHECK(detail(named, "oom.victim_rss_curve") == "(none)");
}

TEST_CASE("An OOM victim no process frame holds, or no process tier, is said so",
          "[trigger][oom]") {
  const flightrec::testing::TempDir dir;
  const auto path = dir.write("kmsg", "");
  KernelLog log(path);
  append_fixture(path);
  Recorded sink;
  OomVictimNamer between_ticks(sink, log, blocks_around_kill(kill_unix_ns(), false));
  between_ticks.write(oom_incident(kill_unix_ns() + 20'000'000), {});
  CHECK(detail(sink.written.at(0), "oom.victim_rss_curve")
            .starts_with("not recorded: the victim "
                         "lived between two"));
  CHECK(detail(sink.written.at(0), "oom.victim_last_rss_bytes") == "(none)");
  CHECK(detail(sink.written.at(0), "oom.top_rss.1").starts_with("pid=300 "));

  // The first namer read the kill from the log; the kernel logs another for the second.
  append_fixture(path);
  OomVictimNamer no_tier(sink, log);
  no_tier.write(oom_incident(kill_unix_ns() + 20'000'000), {});
  CHECK(detail(sink.written.at(1), "oom.victim_pid") == "468");
  CHECK(detail(sink.written.at(1), "oom.victim_rss_curve") ==
        "not recorded: the process tier is off (processes.enabled)");
  CHECK(detail(sink.written.at(1), "oom.top_rss.1") == "(none)");
}

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
  const model::IncidentCapture& named = sink.written[0];
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
        "unknown: no kill in the kernel log within the window; no eBPF exit reports: no exit "
        "watcher");
}

TEST_CASE("Other incidents pass untouched; an unreadable log is named", "[trigger][oom]") {
  KernelLog missing("/nonexistent/kmsg");
  CHECK(missing.error() == "/nonexistent/kmsg: No such file or directory");
  Recorded sink;
  OomVictimNamer namer(sink, missing);
  model::IncidentCapture manual;
  manual.description.kind = flightrec::model::IncidentKind::manual;
  manual.description.rule = "manual";
  manual.description.reason = "deploy";
  namer.write(manual, {});
  const auto& passed = sink.written.at(0).description;
  CHECK(passed.rule == "manual");
  CHECK(passed.reason == "deploy");
  CHECK(passed.details.empty());
  namer.write(oom_incident(kill_unix_ns()), {});
  CHECK(detail(sink.written.at(1), "oom.victim") ==
        "unknown: /nonexistent/kmsg: No such file or directory; no eBPF exit reports: no exit "
        "watcher");
  namer.set_exit_reports_missing("");
  namer.write(oom_incident(kill_unix_ns()), {});
  CHECK(detail(sink.written.at(2), "oom.victim") ==
        "unknown: /nonexistent/kmsg: No such file or directory; no OOM victim's exit reported "
        "within the window");
}

namespace {

// The exit report of the fixture's victim (pid 468), `after_ns` after its kill.
flightrec::process::ExitedProcess victim_exit(int64_t after_ns) {
  return {.pid = 468,
          .ppid = 1,
          .uid = 0,
          .comm = "python3",
          .exit_time_unix_ns = kill_unix_ns() + after_ns,
          .rss_bytes = 72 << 20,
          .oom_victim = true,
          .memory_cgroup = "/process_api/c167e577c55cfb5f39d4d508612875b2/flightrec-oom-371"};
}

}  // namespace

TEST_CASE("Without the kernel log the exit report names the victim", "[trigger][oom]") {
  KernelLog missing("/nonexistent/kmsg");
  Recorded sink;
  OomVictimNamer namer(sink, missing);
  namer.set_exit_reports_missing("");
  const auto exit = victim_exit(15'000'000);
  namer.victim_exited(exit);
  namer.write(oom_incident(kill_unix_ns() + 20'000'000), {});
  const model::IncidentCapture& named = sink.written.at(0);
  CHECK(detail(named, "oom.victim_pid") == "468");
  CHECK(detail(named, "oom.victim_command") == "python3");
  CHECK(detail(named, "oom.victim_cgroup") ==
        "/process_api/c167e577c55cfb5f39d4d508612875b2/flightrec-oom-371");
  CHECK(detail(named, "oom.victim_exit_peak_rss_bytes") == std::to_string(72 << 20));
  CHECK(detail(named, "oom.victim_source") == "ebpf_exit");
  CHECK(detail(named, "oom.killed_at_ns") == std::to_string(exit.exit_time_unix_ns));
  CHECK(detail(named, "oom.kills_in_window") == "1");
  CHECK(detail(named, "oom.victim") == "(none)");
}

TEST_CASE("With both sources the incident holds one victim, named by both", "[trigger][oom]") {
  const flightrec::testing::TempDir dir;
  const auto path = dir.write("kmsg", "");
  KernelLog log(path);
  append_fixture(path);
  Recorded sink;
  OomVictimNamer namer(sink, log);
  namer.set_exit_reports_missing("");
  namer.victim_exited(victim_exit(15'000'000));
  namer.write(oom_incident(kill_unix_ns() + 20'000'000), {});
  const model::IncidentCapture& named = sink.written.at(0);
  CHECK(detail(named, "oom.victim_source") == "kernel_log+ebpf_exit");
  CHECK(detail(named, "oom.kills_in_window") == "1");
  CHECK(detail(named, "oom.cgroup_limit_bytes") == std::to_string(65536 * 1024));
  CHECK(detail(named, "oom.victim_exit_peak_rss_bytes") == std::to_string(72 << 20));
  // The fixture's log names the same command and task_memcg.
  CHECK(detail(named, "oom.sources_disagree") == "(none)");
}

TEST_CASE("An incident whose window holds two kills names each victim", "[trigger][oom]") {
  const flightrec::testing::TempDir dir;
  const auto path = dir.write("kmsg", "");
  KernelLog log(path);
  append_fixture(path);  // pid 468, logged and exited
  Recorded sink;
  OomVictimNamer namer(sink, log);
  namer.set_exit_reports_missing("");
  namer.victim_exited(victim_exit(15'000'000));
  // A second victim 2 s later that only the exit report names (its kill not in the log).
  auto second = victim_exit(2'000'000'000);
  second.pid = 470;
  second.comm = "worker";
  namer.victim_exited(second);
  namer.write(oom_incident(kill_unix_ns() + 20'000'000), {});
  const model::IncidentCapture& named = sink.written.at(0);
  CHECK(detail(named, "oom.victim_pid") == "468");  // the one nearest the firing
  CHECK(detail(named, "oom.kills_in_window") == "2");
  CHECK(detail(named, "oom.victims.1").starts_with("pid=468 killed_at_ns="));
  CHECK(detail(named, "oom.victims.1").ends_with(" source=kernel_log+ebpf_exit comm=python3"));
  CHECK(detail(named, "oom.victims.2") ==
        "pid=470 killed_at_ns=" + std::to_string(second.exit_time_unix_ns) +
            " rss_bytes=" + std::to_string(72 << 20) + " source=ebpf_exit comm=worker");
  CHECK(detail(named, "oom.victims.3") == "(none)");

  // A window holding only the second: one victim, named by the usual keys alone.
  model::IncidentCapture only_second = oom_incident(second.exit_time_unix_ns + 20'000'000);
  only_second.description.window_from_ns = second.exit_time_unix_ns - 1'000'000'000;
  namer.write(only_second, {});
  CHECK(detail(sink.written.at(1), "oom.victim_pid") == "470");
  CHECK(detail(sink.written.at(1), "oom.kills_in_window") == "1");
  CHECK(detail(sink.written.at(1), "oom.victims.1") == "(none)");
}

TEST_CASE("An OOM victim's memory cgroup names its container", "[trigger][oom]") {
  const flightrec::testing::TempDir dir;
  const auto path = dir.write("kmsg", "");
  KernelLog log(path);
  std::ifstream fixture(flightrec::testing::fixture_path("kmsg/pod_oom.records"));
  std::stringstream records;
  records << fixture.rdbuf();
  std::ofstream(path, std::ios::app) << records.str();
  const std::string id = "4c5d1b0e7f2a9c3d8e6b1a0f4c5d1b0e7f2a9c3d8e6b1a0f4c5d1b0e7f2a9c3d";
  const std::string pod_cgroup = "/kubepods/burstable/pod0b7e4f52-3c1d-4a8e-9f60-2d5c7a1b9e34";
  ContainerDirectory directory(std::chrono::minutes(10));
  Recorded sink;
  OomVictimNamer namer(sink, log);
  namer.write(oom_incident(kill_unix_ns() + 20'000'000), {});
  CHECK(detail(sink.written.at(0), "oom.container_id") == "(none)");  // no directory: the cgroup
  CHECK(detail(sink.written.at(0), "oom.victim_cgroup") == pod_cgroup + "/" + id);
  namer.name_containers_with(directory);
  namer.write(oom_incident(kill_unix_ns() + 20'000'000), {});
  CHECK(detail(sink.written.at(1), "oom.container_id") == "(none)");  // not seen here
  // The container tier saw it (it is gone by now: still known for the buffer's length).
  const auto info =
      flightrec::testing::container_info(pod_cgroup + "/" + id, id, "shop", "checkout-7f9c", "app");
  directory.observe(flightrec::testing::Round(0, true, {{info, {}}}).round);
  directory.observe(flightrec::testing::Round(1'000'000'000, true, {}).round);
  namer.write(oom_incident(kill_unix_ns() + 20'000'000), {});
  const model::IncidentCapture& named = sink.written.at(2);
  CHECK(detail(named, "oom.victim_pid") == "468");
  CHECK(detail(named, "oom.namespace") == "shop");
  CHECK(detail(named, "oom.pod") == "checkout-7f9c");
  CHECK(detail(named, "oom.container") == "app");
  CHECK(detail(named, "oom.container_id") == id);
}
