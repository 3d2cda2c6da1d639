#pragma once
// An OOM victim as the two sources that can name it report it, paired up:
// - the kernel log's report of the kill (oom/kernel_log.h): the kill's time, the victim's
//   size split when killed, the constraint, the cgroup whose limit was hit and that limit. Reading
//   it needs CAP_SYSLOG (or CAP_SYS_ADMIN), which the shipped deployments do not grant;
// - the eBPF exit report of a process the OOM killer chose (process/process_exits.h, the process
//   tier's exit watcher, CAP_BPF and CAP_PERFMON): pid, command, uid, memory cgroup and the peak
//   resident set, and the nearest memory limit at or above that cgroup, reported when its last
//   thread exits, a moment after the kill.
// Either alone names the victim; both together must agree on who it was.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "flightrec/process/process_exits.h"
#include "flightrec/recording/metadata.h"
#include "flightrec/trigger/oom/oom_kill_report.h"

namespace flightrec::trigger {

// A kill the kernel log reported, with its time on the Unix clock.
struct LoggedKill {
  int64_t unix_ns = 0;
  oom::OomKillReport report;
};

struct OomVictim {
  // The kill's time from the log; the victim's exit when only the exit report named it.
  int64_t killed_at_ns = 0;
  std::optional<oom::OomKillReport> logged;
  std::optional<process::ExitedProcess> exited;  // an exit with oom_victim set
  // Whichever source named it: both give the same pid when they pair.
  [[nodiscard]] int32_t pid() const { return logged ? logged->pid : exited->pid; }
};

// Pairs each logged kill with the victim exit of the same pid that follows it (a victim may take
// a while to die: stuck in the kernel, or unmapping gigabytes); what has no partner stands alone.
// Both spans oldest first; the result is ordered by killed_at_ns.
std::vector<OomVictim> pair_oom_victims(std::span<const LoggedKill> logged,
                                        std::span<const process::ExitedProcess> exited);

// The incident details naming `victim` (model::incident_details, "oom.*"): the kernel log's
// fields where it has them, the exit report's pid, command, uid and cgroup where it does not, the
// exit report's peak RSS and exit time, which source named it (oom.victim_source) and, when the
// two disagree on the command or the cgroup, both values (oom.sources_disagree).
recording::Labels oom_victim_details(const OomVictim& victim);

// One line per victim, for an incident whose window holds several kills ("oom.victims.N"):
// "pid=468 killed_at_ns=... rss_bytes=73601024 source=kernel_log+ebpf_exit comm=python3", the
// size at the kill from the log, else the exit report's peak (left out when neither knows it).
std::string oom_victim_summary(const OomVictim& victim);

}  // namespace flightrec::trigger
