#include "flightrec/trigger/oom_victims.h"

#include <time.h>

#include <algorithm>
#include <cstdlib>
#include <iterator>
#include <string>
#include <vector>

#include "flightrec/common/clock.h"
#include "flightrec/model/incident_kind.h"
#include "flightrec/model/oom_memory.h"

namespace flightrec::trigger {
namespace {

// Kills (and victims' exits) kept for incidents still to be written: two OOM incidents read the
// log in turn, and the first may read the second's kill.
constexpr size_t kRecentKills = 64;

// How many victims the window holds and, when more than one, each of them ("oom.victims.1"..,
// oldest first): the details above name only the one nearest the firing, and a second kill
// within the window fires no incident of its own.
template <typename InWindow>
void add_window_victims(const std::vector<OomVictim>& known, InWindow in_window,
                        recording::Labels& details) {
  std::vector<const OomVictim*> victims;
  for (const OomVictim& victim : known) {
    if (in_window(victim)) victims.push_back(&victim);
  }
  details.emplace_back("oom.kills_in_window", std::to_string(victims.size()));
  if (victims.size() < 2) return;
  for (size_t i = 0; i < victims.size(); ++i) {
    details.emplace_back("oom.victims." + std::to_string(i + 1), oom_victim_summary(*victims[i]));
  }
}

}  // namespace

void OomVictimNamer::read_log() {
  // The log's clock counts from boot like CLOCK_MONOTONIC; Unix time is that plus this offset.
  const int64_t offset = clock_ns(CLOCK_REALTIME) - clock_ns(CLOCK_MONOTONIC);
  for (auto& report : log_.new_kills()) {
    logged_.push_back({report.kernel_time_us * 1000 + offset, std::move(report)});
    if (logged_.size() > kRecentKills) logged_.pop_front();
  }
}

void OomVictimNamer::victim_exited(const process::ExitedProcess& process) {
  const std::lock_guard lock(exits_mutex_);
  exited_.push_back(process);
  if (exited_.size() > kRecentKills) exited_.pop_front();
}

void OomVictimNamer::set_exit_reports_missing(std::string why) {
  const std::lock_guard lock(exits_mutex_);
  exits_missing_ = std::move(why);
}

std::vector<OomVictim> OomVictimNamer::victims() const {
  const std::vector<LoggedKill> logged(logged_.begin(), logged_.end());
  std::vector<process::ExitedProcess> exited;
  {
    const std::lock_guard lock(exits_mutex_);
    exited.assign(exited_.begin(), exited_.end());
  }
  return pair_oom_victims(logged, exited);
}

// "unknown: <why the log named none>; <why no exit report did>".
std::string OomVictimNamer::why_unknown() const {
  std::string text = "unknown: ";
  text += log_.error().empty() ? "no kill in the kernel log within the window" : log_.error();
  const std::lock_guard lock(exits_mutex_);
  text += exits_missing_.empty() ? "; no OOM victim's exit reported within the window"
                                 : "; no eBPF exit reports: " + exits_missing_;
  return text;
}

void OomVictimNamer::add_container(recording::Labels& details) const {
  namespace keys = model::incident_details;
  if (containers_ == nullptr) return;
  const auto cgroup = std::find_if(details.begin(), details.end(), [](const auto& detail) {
    return detail.first == keys::kOomVictimCgroup;
  });
  if (cgroup == details.end()) return;
  const auto info = containers_->by_cgroup(cgroup->second);
  if (!info) return;
  const auto& names = info->names;
  const std::pair<std::string_view, std::string> named[] = {
      {keys::kOomNamespace, names.pod_namespace},
      {keys::kOomPod, names.pod},
      {keys::kOomContainer, names.container.empty() ? names.name : names.container},
      {keys::kOomContainerId, names.id.empty() ? info->ref.identity.id : names.id}};
  for (const auto& [key, value] : named) {
    if (!value.empty()) details.emplace_back(std::string(key), value);
  }
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

model::WriteOutcome OomVictimNamer::write(const model::IncidentCapture& incident,
                                          store::Snapshot blocks) {
  if (incident.description.kind != model::IncidentKind::oom_kill) {
    return next_.write(incident, std::move(blocks));
  }
  model::IncidentCapture named = incident;
  read_log();
  const model::IncidentDescription& description = incident.description;
  const auto in_window = [&](const OomVictim& victim) {
    return victim.killed_at_ns >= description.window_from_ns &&
           victim.killed_at_ns <= description.window_to_ns;
  };
  // The kill nearest the firing within the incident's window: the rule fires on the first frame
  // whose vmstat read shows the kill, a source step or so after it.
  const std::vector<OomVictim> known = victims();
  const OomVictim* nearest = nullptr;
  for (const OomVictim& victim : known) {
    if (!in_window(victim)) continue;
    if (nearest == nullptr || std::llabs(victim.killed_at_ns - description.fired_at_ns) <
                                  std::llabs(nearest->killed_at_ns - description.fired_at_ns)) {
      nearest = &victim;
    }
  }
  auto& details = named.description.details;
  if (nearest != nullptr) {
    details = oom_victim_details(*nearest);
    details.emplace_back("oom.killed_at_ns", std::to_string(nearest->killed_at_ns));
    add_container(details);
    add_window_victims(known, in_window, details);
    add_memory(description, nearest->killed_at_ns, nearest->pid(), details);
  } else {
    details.emplace_back(model::incident_details::kOomVictimUnknown, why_unknown());
    // No kill time: the consumers as of the firing, a source step or so after the kill.
    add_memory(description, description.fired_at_ns, 0, details);
  }
  return next_.write(named, std::move(blocks));
}

}  // namespace flightrec::trigger
