#pragma once
// Names the victim of each OOM incident (rule oom_kill: the built-in one or a rule replacing it)
// from the kernel log: pid, command, uid, its memory cgroup, its size when killed, and for a
// cgroup OOM the cgroup whose limit was hit and that limit, as "oom.*" details of the incident
// (model::incident_details). It sits in front of the sink that writes the file, so it runs on the
// writer thread after the incident's post window, when the kernel has long logged the kill. With
// the process tier's blocks it adds the biggest memory consumers at the kill and the victim's
// recorded resident set (oom_memory_details.h).
#include <cstdint>
#include <deque>
#include <utility>

#include "flightrec/recording/metadata.h"
#include "flightrec/sampler/oom/kernel_log.h"
#include "flightrec/trigger/incident.h"
#include "flightrec/trigger/oom_memory_details.h"

namespace flightrec::trigger {

// The details an incident carries for `kill`.
[[nodiscard]] recording::Labels oom_details(const sampler::oom::OomKillReport& kill);

class OomVictimNamer final : public IncidentSink {
 public:
  OomVictimNamer(IncidentSink& next, sampler::oom::KernelLog& log,
                 ProcessBlocksSource process_blocks = {})
      : next_(next), log_(log), process_blocks_(std::move(process_blocks)) {}

  void write(const IncidentCapture& incident, store::Snapshot blocks) override;

 private:
  struct Kill {
    int64_t unix_ns = 0;
    sampler::oom::OomKillReport report;
  };
  void read_log();
  void add_memory(const model::IncidentDescription& incident, int64_t killed_at_ns,
                  int32_t victim_pid, recording::Labels& details) const;
  [[nodiscard]] const Kill* kill_for(const model::IncidentDescription& incident) const;
  [[nodiscard]] size_t kills_in(const model::IncidentDescription& incident) const;

  IncidentSink& next_;
  sampler::oom::KernelLog& log_;
  ProcessBlocksSource process_blocks_;
  std::deque<Kill> recent_;  // the last kills read, oldest first (bounded)
};

}  // namespace flightrec::trigger
