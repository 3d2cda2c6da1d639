#include "flightrec/trigger/oom_victim_sources.h"

#include <algorithm>
#include <string>

#include "flightrec/model/incident_description.h"

namespace flightrec::trigger {
namespace {

namespace keys = model::incident_details;

// How long after its kill a victim's exit still pairs with it. SIGKILL usually ends a process in
// milliseconds; one in an uninterruptible wait ends when that wait does (the OOM reaper frees its
// memory meanwhile).
constexpr int64_t kExitAfterKillNs = 30'000'000'000;
// The log's clock and CLOCK_BOOTTIME are turned into Unix time by offsets taken at different
// moments: an exit may seem to come a little before its kill.
constexpr int64_t kClockSlackNs = 1'000'000'000;

bool pairs(const LoggedKill& kill, const network::ExitedProcess& exit) {
  return exit.pid == kill.report.pid && exit.exit_time_unix_ns >= kill.unix_ns - kClockSlackNs &&
         exit.exit_time_unix_ns <= kill.unix_ns + kExitAfterKillNs;
}

// "command: kernel log python3, exit report python; cgroup: ..." for what the two name
// differently, "" when they agree. The log names the task it chose, the exit report the
// group's leader: a thread renamed with prctl differs without being another process.
std::string disagreement(const sampler::oom::OomKillReport& logged,
                         const network::ExitedProcess& exited) {
  std::string text;
  const auto compare = [&](std::string_view what, const std::string& log_value,
                           const std::string& exit_value) {
    if (log_value.empty() || exit_value.empty() || log_value == exit_value) return;
    if (!text.empty()) text += "; ";
    text += std::string(what) + ": kernel log " + log_value + ", exit report " + exit_value;
  };
  compare("command", logged.command, exited.comm);
  compare("cgroup", logged.victim_cgroup, exited.memory_cgroup);
  return text;
}

// The kernel log report's fields.
recording::Labels log_details(const sampler::oom::OomKillReport& kill) {
  recording::Labels details{{std::string(keys::kOomVictimPid), std::to_string(kill.pid)},
                            {std::string(keys::kOomVictimCommand), kill.command}};
  if (kill.uid) details.emplace_back("oom.victim_uid", std::to_string(*kill.uid));
  if (!kill.victim_cgroup.empty()) details.emplace_back(keys::kOomVictimCgroup, kill.victim_cgroup);
  details.emplace_back(keys::kOomVictimRssBytes, std::to_string(kill.rss_bytes()));
  details.emplace_back("oom.victim_anon_rss_bytes", std::to_string(kill.anon_rss_bytes));
  details.emplace_back("oom.victim_total_vm_bytes", std::to_string(kill.total_vm_bytes));
  if (!kill.constraint.empty()) details.emplace_back("oom.constraint", kill.constraint);
  if (!kill.oom_cgroup.empty()) details.emplace_back("oom.cgroup", kill.oom_cgroup);
  if (kill.cgroup_limit_bytes) {
    details.emplace_back("oom.cgroup_limit_bytes", std::to_string(*kill.cgroup_limit_bytes));
  }
  return details;
}

// pid, command, uid and cgroup from the exit report, for a victim the log did not report.
recording::Labels exit_identity(const network::ExitedProcess& exited) {
  recording::Labels details{{std::string(keys::kOomVictimPid), std::to_string(exited.pid)},
                            {std::string(keys::kOomVictimCommand), exited.comm},
                            {"oom.victim_uid", std::to_string(exited.uid)}};
  if (!exited.memory_cgroup.empty()) {
    details.emplace_back(keys::kOomVictimCgroup, exited.memory_cgroup);
  }
  return details;
}

}  // namespace

std::vector<OomVictim> pair_oom_victims(std::span<const LoggedKill> logged,
                                        std::span<const network::ExitedProcess> exited) {
  std::vector<OomVictim> victims;
  std::vector<bool> paired(exited.size(), false);
  for (const LoggedKill& kill : logged) {
    OomVictim& victim = victims.emplace_back();
    victim.killed_at_ns = kill.unix_ns;
    victim.logged = kill.report;
    for (size_t i = 0; i < exited.size(); ++i) {
      if (paired[i] || !pairs(kill, exited[i])) continue;
      paired[i] = true;
      victim.exited = exited[i];
      break;
    }
  }
  for (size_t i = 0; i < exited.size(); ++i) {
    if (paired[i]) continue;
    victims.push_back({.killed_at_ns = exited[i].exit_time_unix_ns, .exited = exited[i]});
  }
  std::stable_sort(victims.begin(), victims.end(), [](const OomVictim& a, const OomVictim& b) {
    return a.killed_at_ns < b.killed_at_ns;
  });
  return victims;
}

recording::Labels oom_victim_details(const OomVictim& victim) {
  recording::Labels details =
      victim.logged ? log_details(*victim.logged) : exit_identity(*victim.exited);
  if (victim.exited) {
    // The kernel's maxrss: 0 when it could not be read (the mm already gone and maxrss unset).
    if (victim.exited->rss_bytes > 0) {
      details.emplace_back(keys::kOomVictimExitPeakRssBytes,
                           std::to_string(victim.exited->rss_bytes));
    }
    details.emplace_back("oom.victim_exited_at_ns",
                         std::to_string(victim.exited->exit_time_unix_ns));
  }
  details.emplace_back(keys::kOomVictimSource, victim.logged && victim.exited
                                                   ? "kernel_log+ebpf_exit"
                                               : victim.logged ? "kernel_log"
                                                               : "ebpf_exit");
  if (victim.logged && victim.exited) {
    if (auto differ = disagreement(*victim.logged, *victim.exited); !differ.empty()) {
      details.emplace_back("oom.sources_disagree", std::move(differ));
    }
  }
  return details;
}

}  // namespace flightrec::trigger
