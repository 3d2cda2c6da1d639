#pragma once
// Names the victim of each OOM incident (kind oom_kill: the built-in rule or a rule replacing it)
// from the kernel log and from the process tier's eBPF exit reports (oom_victim_sources.h): pid,
// command, uid, its memory cgroup, its size, which source named it, and from the log, for a
// cgroup OOM, the cgroup whose limit was hit and that limit, as "oom.*" details of the incident
// (model::incident_details). It sits in front of the sink that writes the file, so it runs on the
// writer thread after the incident's post window, when the kernel has long logged the kill and
// the victim has exited. With the process tier's blocks it adds the biggest memory consumers at
// the kill and the victim's recorded resident set (oom_memory_details.h).
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "flightrec/model/incident_handoff.h"
#include "flightrec/process/process_exits.h"
#include "flightrec/recording/metadata.h"
#include "flightrec/trigger/container_directory.h"
#include "flightrec/trigger/oom/kernel_log.h"
#include "flightrec/trigger/oom_memory_details.h"
#include "flightrec/trigger/oom_victim_sources.h"

namespace flightrec::trigger {

class OomVictimNamer final : public model::IncidentSink {
 public:
  OomVictimNamer(model::IncidentSink& next, oom::KernelLog& log,
                 ProcessBlocksSource process_blocks = {})
      : next_(next), log_(log), process_blocks_(std::move(process_blocks)) {}

  model::WriteOutcome write(const model::IncidentCapture& incident,
                            store::Snapshot blocks) override;

  // Any thread (the process tier's): an exit the kernel reported as an OOM victim's.
  void victim_exited(const process::ExitedProcess& process);
  // Before the first incident: where the victim's memory cgroup is looked up to name its
  // container (oom.namespace, oom.pod, oom.container, oom.container_id). Without it (the
  // container tier off) the incident names the cgroup only.
  void name_containers_with(const ContainerDirectory& directory) { containers_ = &directory; }
  // Why no exit reports come, for an incident that can name no victim ("" once they do). Until
  // told, the namer assumes none come.
  void set_exit_reports_missing(std::string why);

 private:
  void read_log();
  [[nodiscard]] std::vector<OomVictim> victims() const;
  [[nodiscard]] std::string why_unknown() const;
  void add_container(recording::Labels& details) const;
  void add_memory(const model::IncidentDescription& incident, int64_t killed_at_ns,
                  int32_t victim_pid, recording::Labels& details) const;

  model::IncidentSink& next_;
  oom::KernelLog& log_;
  ProcessBlocksSource process_blocks_;
  const ContainerDirectory* containers_ = nullptr;
  std::deque<LoggedKill> logged_;  // the last kills read from the log, oldest first (bounded)
  mutable std::mutex exits_mutex_;
  std::deque<process::ExitedProcess> exited_;  // the last victims' exits, oldest first (bounded)
  std::string exits_missing_ = "no exit watcher";
};

}  // namespace flightrec::trigger
