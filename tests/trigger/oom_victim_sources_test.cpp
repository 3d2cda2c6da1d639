// The kernel log's kills and the eBPF exit reports of OOM victims, paired and turned into an
// incident's details: a victim's exit pairs with its own kill only, either source alone names the
// victim, and two that disagree say so.
#include "flightrec/trigger/oom_victim_sources.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

using namespace flightrec::trigger;
using flightrec::process::ExitedProcess;
using flightrec::trigger::oom::OomKillReport;

namespace {

constexpr int64_t kSecond = 1'000'000'000;
constexpr int64_t kKillNs = 1'796'180'645 * kSecond;
constexpr uint64_t kMiB = 1 << 20;

LoggedKill logged(int32_t pid, int64_t at_ns) {
  OomKillReport report;
  report.kernel_time_us = 36815667033;
  report.pid = pid;
  report.command = "python3";
  report.uid = 0;
  report.constraint = "CONSTRAINT_MEMCG";
  report.oom_cgroup = "/pods";
  report.victim_cgroup = "/pods/a";
  report.cgroup_limit_bytes = 64 * kMiB;
  report.total_vm_bytes = 80 * kMiB;
  report.anon_rss_bytes = 63 * kMiB;
  report.file_rss_bytes = 1 * kMiB;
  return {at_ns, report};
}

ExitedProcess exited(int32_t pid, int64_t at_ns) {
  return {.pid = pid,
          .ppid = 1,
          .uid = 0,
          .comm = "python3",
          .exit_time_unix_ns = at_ns,
          .rss_bytes = 65 * kMiB,
          .oom_victim = true,
          .memory_cgroup = "/pods/a",
          // /pods/a has no limit of its own: the nearest is its parent's, the one the log's
          // kill hit.
          .memory_limit_bytes = 64 * kMiB,
          .memory_limit_cgroup = "/pods"};
}

std::string detail(const flightrec::recording::Labels& details, std::string_view key) {
  for (const auto& [k, v] : details) {
    if (k == key) return v;
  }
  return "(none)";
}

// Each victim as "pid:log" / "pid:exit" / "pid:log+exit".
std::vector<std::string> sources(const std::vector<OomVictim>& victims) {
  std::vector<std::string> out;
  for (const auto& victim : victims) {
    const int32_t pid = victim.logged ? victim.logged->pid : victim.exited->pid;
    out.push_back(std::to_string(pid) + ":" +
                  (victim.logged && victim.exited ? "log+exit"
                   : victim.logged                ? "log"
                                                  : "exit"));
  }
  return out;
}

}  // namespace

TEST_CASE("A victim's exit pairs with its own kill, after it", "[trigger][oom]") {
  const std::vector<LoggedKill> kills = {logged(468, kKillNs), logged(470, kKillNs + kSecond)};
  const std::vector<ExitedProcess> exits = {
      exited(468, kKillNs + 20'000'000),          // 20 ms after its kill
      exited(470, kKillNs + kSecond - 5'000'000)  // 5 ms "before": the clocks' offsets differ
  };
  const auto victims = pair_oom_victims(kills, exits);
  CHECK(sources(victims) == std::vector<std::string>{"468:log+exit", "470:log+exit"});
  CHECK(victims[0].killed_at_ns == kKillNs);  // the log's time of the kill, not the exit's
  CHECK(victims[1].exited->exit_time_unix_ns == kKillNs + kSecond - 5'000'000);
}

TEST_CASE("Exits of another pid, long before or long after a kill stand alone", "[trigger][oom]") {
  const std::vector<LoggedKill> kills = {logged(468, kKillNs)};
  const std::vector<ExitedProcess> exits = {
      exited(469, kKillNs + 10'000'000),     // another victim
      exited(468, kKillNs - 5 * kSecond),    // pid 468 before: an earlier process with that pid
      exited(468, kKillNs + 60 * kSecond)};  // a minute later: a later process with that pid
  const auto victims = pair_oom_victims(kills, exits);
  CHECK(sources(victims) ==
        std::vector<std::string>{"468:exit", "468:log", "469:exit", "468:exit"});
  // An exit alone is placed at its exit.
  CHECK(victims[0].killed_at_ns == kKillNs - 5 * kSecond);
  CHECK(victims[3].killed_at_ns == kKillNs + 60 * kSecond);
}

TEST_CASE("One exit pairs with one kill only", "[trigger][oom]") {
  const std::vector<LoggedKill> kills = {logged(468, kKillNs), logged(468, kKillNs + kSecond)};
  const std::vector<ExitedProcess> exits = {exited(468, kKillNs + 2 * kSecond)};
  CHECK(sources(pair_oom_victims(kills, exits)) ==
        std::vector<std::string>{"468:log+exit", "468:log"});
}

TEST_CASE("Both sources: the log's fields, the exit's peak, and where they came from",
          "[trigger][oom]") {
  const auto details = oom_victim_details({.killed_at_ns = kKillNs,
                                           .logged = logged(468, kKillNs).report,
                                           .exited = exited(468, kKillNs + 20'000'000)});
  CHECK(detail(details, "oom.victim_pid") == "468");
  CHECK(detail(details, "oom.victim_command") == "python3");
  CHECK(detail(details, "oom.victim_cgroup") == "/pods/a");
  CHECK(detail(details, "oom.victim_rss_bytes") == std::to_string(64 * kMiB));
  CHECK(detail(details, "oom.cgroup_limit_bytes") == std::to_string(64 * kMiB));
  CHECK(detail(details, "oom.victim_exit_peak_rss_bytes") == std::to_string(65 * kMiB));
  CHECK(detail(details, "oom.victim_exited_at_ns") == std::to_string(kKillNs + 20'000'000));
  CHECK(detail(details, "oom.victim_source") == "kernel_log+ebpf_exit");
  // Both give /pods' limit, and the same one.
  CHECK(detail(details, "oom.victim_limit_bytes") == std::to_string(64 * kMiB));
  CHECK(detail(details, "oom.victim_limit_cgroup") == "/pods");
  CHECK(detail(details, "oom.sources_disagree") == "(none)");
}

TEST_CASE("The exit report alone names the victim without the log's cgroup limit",
          "[trigger][oom]") {
  ExitedProcess exit = exited(468, kKillNs);
  exit.uid = 1000;
  const auto details = oom_victim_details({.killed_at_ns = kKillNs, .exited = exit});
  CHECK(detail(details, "oom.victim_pid") == "468");
  CHECK(detail(details, "oom.victim_command") == "python3");
  CHECK(detail(details, "oom.victim_uid") == "1000");
  CHECK(detail(details, "oom.victim_cgroup") == "/pods/a");
  CHECK(detail(details, "oom.victim_exit_peak_rss_bytes") == std::to_string(65 * kMiB));
  CHECK(detail(details, "oom.victim_source") == "ebpf_exit");
  CHECK(detail(details, "oom.victim_rss_bytes") == "(none)");
  // The limit the exit program found, under its own key: without the log's constraint it cannot
  // be said to be the one the kill hit.
  CHECK(detail(details, "oom.cgroup_limit_bytes") == "(none)");
  CHECK(detail(details, "oom.victim_limit_bytes") == std::to_string(64 * kMiB));
  CHECK(detail(details, "oom.victim_limit_cgroup") == "/pods");
  // A peak the kernel could not give (0) is left out rather than stated as 0 bytes; so is a
  // limit where no cgroup up to the root has one, and a cgroup path too short to hold it.
  exit.rss_bytes = 0;
  exit.memory_cgroup.clear();
  exit.memory_limit_cgroup.clear();
  const auto pathless = oom_victim_details({.killed_at_ns = kKillNs, .exited = exit});
  CHECK(detail(pathless, "oom.victim_limit_bytes") == std::to_string(64 * kMiB));
  CHECK(detail(pathless, "oom.victim_limit_cgroup") == "(none)");
  exit.memory_limit_bytes = 0;
  const auto bare = oom_victim_details({.killed_at_ns = kKillNs, .exited = exit});
  CHECK(detail(bare, "oom.victim_exit_peak_rss_bytes") == "(none)");
  CHECK(detail(bare, "oom.victim_cgroup") == "(none)");
  CHECK(detail(bare, "oom.victim_limit_bytes") == "(none)");
}

TEST_CASE("Sources that disagree on the command or the cgroup say both", "[trigger][oom]") {
  ExitedProcess exit = exited(468, kKillNs);
  exit.comm = "worker";
  exit.memory_cgroup = "/pods/b";
  const auto details = oom_victim_details(
      {.killed_at_ns = kKillNs, .logged = logged(468, kKillNs).report, .exited = exit});
  CHECK(detail(details, "oom.victim_command") == "python3");  // the log's, which names the task
  CHECK(detail(details, "oom.sources_disagree") ==
        "command: kernel log python3, exit report worker; cgroup: kernel log /pods/a, exit "
        "report /pods/b");
}

TEST_CASE("Sources that give one cgroup different limits say both; other cgroups' do not compare",
          "[trigger][oom]") {
  ExitedProcess exit = exited(468, kKillNs);
  exit.memory_limit_bytes = 128 * kMiB;  // memory.max raised between the kill and the exit
  const OomVictim victim{
      .killed_at_ns = kKillNs, .logged = logged(468, kKillNs).report, .exited = exit};
  CHECK(detail(oom_victim_details(victim), "oom.sources_disagree") ==
        "limit of /pods: kernel log " + std::to_string(64 * kMiB) + ", exit report " +
            std::to_string(128 * kMiB));
  // The nearest limit is the victim's own; the kill hit its parent's: two limits, both true.
  exit.memory_limit_cgroup = "/pods/a";
  const OomVictim nearer{
      .killed_at_ns = kKillNs, .logged = logged(468, kKillNs).report, .exited = exit};
  const auto details = oom_victim_details(nearer);
  CHECK(detail(details, "oom.sources_disagree") == "(none)");
  CHECK(detail(details, "oom.cgroup_limit_bytes") == std::to_string(64 * kMiB));
  CHECK(detail(details, "oom.victim_limit_bytes") == std::to_string(128 * kMiB));
}

TEST_CASE("A victim's one-line summary names it by whichever source had it", "[trigger][oom]") {
  const auto logged_kill = logged(468, kKillNs);
  CHECK(oom_victim_summary({.killed_at_ns = kKillNs,
                            .logged = logged_kill.report,
                            .exited = exited(468, kKillNs + 1)}) ==
        "pid=468 killed_at_ns=" + std::to_string(kKillNs) + " rss_bytes=" +
            std::to_string(64 * kMiB) + " source=kernel_log+ebpf_exit comm=python3");
  ExitedProcess exit = exited(470, kKillNs);
  exit.comm = "my worker";
  CHECK(oom_victim_summary({.killed_at_ns = kKillNs, .exited = exit}) ==
        "pid=470 killed_at_ns=" + std::to_string(kKillNs) +
            " rss_bytes=" + std::to_string(65 * kMiB) + " source=ebpf_exit comm=my worker");
  exit.rss_bytes = 0;  // not known: left out
  CHECK(oom_victim_summary({.killed_at_ns = kKillNs, .exited = exit}) ==
        "pid=470 killed_at_ns=" + std::to_string(kKillNs) + " source=ebpf_exit comm=my worker");
  CHECK(oom_victim_summary({.killed_at_ns = kKillNs, .logged = logged_kill.report})
            .ends_with(" source=kernel_log comm=python3"));
}
