#include "flightrec/trigger/oom_victims.h"

#include <time.h>

#include <algorithm>
#include <cstdlib>
#include <iterator>
#include <string>

#include "flightrec/common/clock.h"
#include "flightrec/model/oom_memory.h"
#include "flightrec/trigger/builtin_rules.h"

namespace flightrec::trigger {
namespace {

namespace keys = model::incident_details;

// Kills kept for incidents still to be written: two OOM incidents read the log in turn, and the
// first may read the second's kill.
constexpr size_t kRecentKills = 64;

}  // namespace

recording::Labels oom_details(const sampler::oom::OomKillReport& kill) {
  recording::Labels details{{std::string(keys::kOomVictimPid), std::to_string(kill.pid)},
                            {std::string(keys::kOomVictimCommand), kill.command}};
  if (kill.uid) details.emplace_back("oom.victim_uid", std::to_string(*kill.uid));
  if (!kill.victim_cgroup.empty()) details.emplace_back("oom.victim_cgroup", kill.victim_cgroup);
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

void OomVictimNamer::read_log() {
  // The log's clock counts from boot like CLOCK_MONOTONIC; Unix time is that plus this offset.
  const int64_t offset = clock_ns(CLOCK_REALTIME) - clock_ns(CLOCK_MONOTONIC);
  for (auto& report : log_.new_kills()) {
    recent_.push_back({report.kernel_time_us * 1000 + offset, std::move(report)});
    if (recent_.size() > kRecentKills) recent_.pop_front();
  }
}

const OomVictimNamer::Kill* OomVictimNamer::kill_for(
    const model::IncidentDescription& incident) const {
  // The kill nearest the firing within the incident's window: the rule fires on the first frame
  // whose vmstat read shows the kill, a source step or so after it.
  const Kill* nearest = nullptr;
  for (const Kill& kill : recent_) {
    if (kill.unix_ns < incident.window_from_ns || kill.unix_ns > incident.window_to_ns) continue;
    if (nearest == nullptr || std::llabs(kill.unix_ns - incident.fired_at_ns) <
                                  std::llabs(nearest->unix_ns - incident.fired_at_ns)) {
      nearest = &kill;
    }
  }
  return nearest;
}

size_t OomVictimNamer::kills_in(const model::IncidentDescription& incident) const {
  return static_cast<size_t>(std::count_if(recent_.begin(), recent_.end(), [&](const Kill& kill) {
    return kill.unix_ns >= incident.window_from_ns && kill.unix_ns <= incident.window_to_ns;
  }));
}

void OomVictimNamer::add_memory(const model::IncidentDescription& incident, int64_t killed_at_ns,
                                int32_t victim_pid, recording::Labels& details) const {
  if (!process_blocks_) {
    if (victim_pid != 0) {
      details.emplace_back(model::oom_detail_keys::kVictimRssCurve,
                           "not recorded: the process tier is off (processes.enabled)");
    }
    return;
  }
  auto memory =
      oom_memory_details(process_blocks_(), incident.window_from_ns, killed_at_ns, victim_pid);
  details.insert(details.end(), std::make_move_iterator(memory.begin()),
                 std::make_move_iterator(memory.end()));
}

void OomVictimNamer::write(const IncidentCapture& incident, store::Snapshot blocks) {
  if (incident.description.rule != kOomKillRule) {
    next_.write(incident, std::move(blocks));
    return;
  }
  IncidentCapture named = incident;
  read_log();
  auto& details = named.description.details;
  if (const Kill* kill = kill_for(incident.description)) {
    details = oom_details(kill->report);
    details.emplace_back("oom.killed_at_ns", std::to_string(kill->unix_ns));
    details.emplace_back("oom.kills_in_window", std::to_string(kills_in(incident.description)));
    add_memory(incident.description, kill->unix_ns, kill->report.pid, details);
  } else {
    details.emplace_back("oom.victim", log_.error().empty()
                                           ? "unknown: no kill in the kernel log within the window"
                                           : "unknown: " + log_.error());
    // No kill time: the consumers as of the firing, a source step or so after the kill.
    add_memory(incident.description, incident.description.fired_at_ns, 0, details);
  }
  next_.write(named, std::move(blocks));
}

}  // namespace flightrec::trigger
