// OomMemoryScan over process frames: the top resident sets come from the last frame at or before
// the kill, the victim's samples stop at the kill, exited and empty rows are left out; and the
// "oom.top_rss.N" text reads back as written.
#include "flightrec/model/oom_memory.h"

#include <catch2/catch.hpp>

using namespace flightrec;
using process::ProcessFrame;
using process::ProcessRow;

namespace {

constexpr int64_t kSecond = 1'000'000'000;

ProcessRow row(int32_t pid, const char* comm, uint64_t rss, bool exited = false) {
  ProcessRow r;
  r.pid = pid;
  r.comm = comm;
  r.cmdline = std::string(comm) + " --serve";
  r.rss_bytes = rss;
  r.exited = exited;
  return r;
}

ProcessFrame frame(int64_t at_ns, std::vector<ProcessRow> rows) {
  ProcessFrame f;
  f.time_unix_ns = at_ns;
  f.processes = std::move(rows);
  return f;
}

std::vector<int32_t> pids(const std::vector<model::ResidentProcess>& top) {
  std::vector<int32_t> out;
  for (const auto& p : top) out.push_back(p.pid);
  return out;
}

}  // namespace

TEST_CASE("The top resident sets are those of the last frame before the kill", "[model][oom]") {
  model::OomMemoryScan scan(10 * kSecond, 7, 3);
  CHECK(scan.add(frame(8 * kSecond, {row(1, "init", 10), row(7, "hog", 100), row(9, "db", 50)})));
  CHECK(
      scan.add(frame(9 * kSecond, {row(1, "init", 10), row(3, "gone", 900, true), row(5, "web", 50),
                                   row(7, "hog", 400), row(9, "db", 50), row(11, "idle", 0)})));
  // After the kill: the victim is gone and a new process is big, neither counts.
  CHECK_FALSE(scan.add(frame(10 * kSecond + 1, {row(1, "init", 10), row(12, "late", 5000)})));
  CHECK(scan.top_at_ns() == 9 * kSecond);
  // Exited (3) and empty (11) rows left out; a tie (5 and 9 at 50) goes to the lower pid.
  CHECK(pids(scan.top()) == std::vector<int32_t>{7, 5, 9});
  CHECK(scan.top()[0] == model::ResidentProcess{.pid = 7, .comm = "hog", .rss_bytes = 400});
  const auto& victim = scan.victim();
  CHECK(victim.samples == 2);
  CHECK(victim.last_bytes == 400);
  CHECK(victim.last_at_ns == 9 * kSecond);
  CHECK(victim.peak_bytes == 400);
  CHECK(victim.peak_at_ns == 9 * kSecond);
}

TEST_CASE("The victim's peak may precede its last sample; an unknown victim has none",
          "[model][oom]") {
  model::OomMemoryScan scan(10 * kSecond, 7, 5);
  scan.add(frame(1 * kSecond, {row(7, "hog", 300)}));
  scan.add(frame(2 * kSecond, {row(7, "hog", 800)}));
  ProcessRow renamed = row(7, "hog", 200);
  renamed.cmdline = "hog --after-exec";
  renamed.container_id = std::string(64, 'a');
  scan.add(frame(3 * kSecond, {renamed, row(8, "other", 100)}));
  // The frame that found it gone: an exited row without memory is not a sample.
  scan.add(frame(4 * kSecond, {row(7, "hog", 0, true), row(8, "other", 100)}));
  // Who it was: as the last frame that held it recorded it.
  CHECK(scan.victim().cmdline == "hog --after-exec");
  CHECK(scan.victim().container_id == std::string(64, 'a'));
  CHECK(scan.victim().samples == 3);
  CHECK(scan.victim().last_bytes == 200);
  CHECK(scan.victim().last_at_ns == 3 * kSecond);
  CHECK(scan.victim().peak_bytes == 800);
  CHECK(scan.victim().peak_at_ns == 2 * kSecond);
  CHECK(pids(scan.top()) == std::vector<int32_t>{8});

  model::OomMemoryScan unknown(10 * kSecond, 0, 5);
  unknown.add(frame(1 * kSecond, {row(0, "swapper", 300), row(7, "hog", 800)}));
  CHECK(unknown.victim().samples == 0);
  CHECK(unknown.victim().cmdline.empty());
  CHECK(pids(unknown.top()) == std::vector<int32_t>{7, 0});
}

TEST_CASE("A top entry reads back as written; other text is refused", "[model][oom]") {
  const model::ResidentProcess java{.pid = 1234, .comm = "java main", .rss_bytes = 1288490188};
  CHECK(model::format_resident(java) == "pid=1234 rss_bytes=1288490188 comm=java main");
  CHECK(model::parse_resident(model::format_resident(java)) == java);
  CHECK(model::parse_resident("pid=1 rss_bytes=2 comm=") ==
        model::ResidentProcess{.pid = 1, .comm = "", .rss_bytes = 2});
  CHECK_FALSE(model::parse_resident(""));
  CHECK_FALSE(model::parse_resident("pid=x rss_bytes=2 comm=a"));
  CHECK_FALSE(model::parse_resident("pid=1 rss_bytes=-2 comm=a"));
  CHECK_FALSE(model::parse_resident("pid=1 rss=2 comm=a"));
  CHECK_FALSE(model::parse_resident("pid=1 rss_bytes=2 name=a"));
}

TEST_CASE("An OOM incident's details read back as one kill", "[model][oom]") {
  model::IncidentDescription incident{.rule = "oom_kill"};
  CHECK_FALSE(model::oom_kill_details(incident).any);
  incident.details = {{"oom.victim_pid", "468"},
                      {"oom.victim_command", "python3"},
                      {"oom.victim_rss_bytes", "71000000"},
                      {"oom.killed_at_ns", "1796180645000000000"},
                      {"oom.top_rss_at_ns", "1796180644900000000"},
                      {"oom.top_rss.1", "pid=468 rss_bytes=70000000 comm=python3"},
                      {"oom.top_rss.2", "not an entry"},
                      {"oom.top_rss.3", "pid=1 rss_bytes=5 comm=init"}};
  const auto kill = model::oom_kill_details(incident);
  CHECK(kill.any);
  CHECK(kill.victim_pid == 468);
  CHECK(kill.victim_command == "python3");
  CHECK(kill.victim_rss_bytes == 71000000U);
  CHECK(kill.killed_at_ns == 1796180645000000000);
  CHECK(kill.top_rss_at_ns == 1796180644900000000);
  CHECK(pids(kill.top_rss) == std::vector<int32_t>{468, 1});
  // Values that do not parse, or a time or pid that is not positive, read as absent.
  incident.details = {{"oom.victim_pid", "-3"}, {"oom.killed_at_ns", "soon"}};
  const auto unparsed = model::oom_kill_details(incident);
  CHECK(unparsed.any);
  CHECK(unparsed.victim_pid == 0);
  CHECK(unparsed.killed_at_ns == 0);
  CHECK_FALSE(unparsed.victim_rss_bytes);
}

TEST_CASE("An OOM incident's details say which source named the victim, or why none did",
          "[model][oom]") {
  model::IncidentDescription incident{.rule = "oom_kill"};
  incident.details = {{"oom.victim_pid", "468"},
                      {"oom.victim_command", "python3"},
                      {"oom.victim_cgroup", "/pods/a"},
                      {"oom.victim_exit_peak_rss_bytes", "72000000"},
                      {"oom.victim_source", "ebpf_exit"}};
  const auto kill = model::oom_kill_details(incident);
  CHECK(kill.victim_cgroup == "/pods/a");
  CHECK_FALSE(kill.victim_rss_bytes);
  CHECK(kill.victim_exit_peak_rss_bytes == 72000000U);
  CHECK(kill.victim_source == "ebpf_exit");
  CHECK(kill.victim_unknown.empty());
  incident.details = {{"oom.victim", "unknown: /dev/kmsg: Operation not permitted"}};
  CHECK(model::oom_kill_details(incident).victim_unknown ==
        "unknown: /dev/kmsg: Operation not permitted");
}
