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

bool pairs(const LoggedKill& kill, const process::ExitedProcess& exit) {
  return exit.pid == kill.report.pid && exit.exit_time_unix_ns >= kill.unix_ns - kClockSlackNs &&
         exit.exit_time_unix_ns <= kill.unix_ns + kExitAfterKillNs;
}

// "command: kernel log python3, exit report python; cgroup: ..." for what the two name
// differently, "" when they agree. The log names the task it chose, the exit report the
// group's leader: a thread renamed with prctl differs without being another process.
std::string disagreement(const oom::OomKillReport& logged, const process::ExitedProcess& exited) {
  std::string text;
  const auto compare = [&](std::string_view what, const std::string& log_value,
                           const std::string& exit_value) {
    if (log_value.empty() || exit_value.empty() || log_value == exit_value) return;
    if (!text.empty()) text += "; ";
    text += std::string(what) + ": kernel log " + log_value + ", exit report " + exit_value;
  };
  compare("command", logged.command, exited.comm);
  compare("cgroup", logged.victim_cgroup, exited.memory_cgroup);
  // Limits only compare for one cgroup: the nearest limited one need not be the one whose limit
  // the kill hit (an ancestor's, or none for a system OOM).
  if (logged.cgroup_limit_bytes && exited.memory_limit_bytes != 0 &&
      logged.oom_cgroup == exited.memory_limit_cgroup) {
    compare("limit of " + logged.oom_cgroup, std::to_string(*logged.cgroup_limit_bytes),
            std::to_string(exited.memory_limit_bytes));
  }
  return text;
}

// oom.victim_source's value: which sources named the victim.
std::string_view source_name(const OomVictim& victim) {
  using model::OomVictimSource;
  const OomVictimSource source = victim.logged && victim.exited ? OomVictimSource::both
                                 : victim.logged                ? OomVictimSource::kernel_log
                                                                : OomVictimSource::ebpf_exit;
  return name_of(model::kOomVictimSourceNames, source);
}

// The exit report's nearest memory limit, for a log that cannot be read or says no more; both are
// given when both have one (they agree, or oom.sources_disagree says otherwise).
void add_exit_limit(const process::ExitedProcess& exited, recording::Labels& details) {
  if (exited.memory_limit_bytes == 0) return;
  details.emplace_back("oom.victim_limit_bytes", std::to_string(exited.memory_limit_bytes));
  if (!exited.memory_limit_cgroup.empty()) {
    details.emplace_back("oom.victim_limit_cgroup", exited.memory_limit_cgroup);
  }
}

// The kernel log report's fields.
recording::Labels log_details(const oom::OomKillReport& kill) {
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
recording::Labels exit_identity(const process::ExitedProcess& exited) {
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
                                        std::span<const process::ExitedProcess> exited) {
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
    add_exit_limit(*victim.exited, details);
  }
  details.emplace_back(keys::kOomVictimSource, source_name(victim));
  if (victim.logged && victim.exited) {
    if (auto differ = disagreement(*victim.logged, *victim.exited); !differ.empty()) {
      details.emplace_back("oom.sources_disagree", std::move(differ));
    }
  }
  return details;
}

std::string oom_victim_summary(const OomVictim& victim) {
  std::string text = "pid=" + std::to_string(victim.pid()) +
                     " killed_at_ns=" + std::to_string(victim.killed_at_ns);
  const uint64_t rss = victim.logged ? victim.logged->rss_bytes() : victim.exited->rss_bytes;
  if (rss != 0) text += " rss_bytes=" + std::to_string(rss);
  text += " source=" + std::string(source_name(victim));
  // comm last, as in oom.top_rss.N: it may hold spaces, so it takes the rest of the value.
  text += " comm=" + (victim.logged ? victim.logged->command : victim.exited->comm);
  return text;
}

}  // namespace flightrec::trigger
