#pragma once
// Every CFS throttling episode of every group on the host, from the kernel's own clocks: a BPF
// program on the sched_switch tracepoint (container/bpf/cfs_throttle.bpf.c) reports each CPU's
// throttled spans, and an EpisodeAssembler makes them into each group's episodes and totals.
// Needs root (CAP_BPF + CAP_PERFMON) and kernel BTF. See docs/CONTAINERS.md ("Throttling
// episodes").
#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "flightrec/common/result.h"
#include "flightrec/container/throttle/episode_assembler.h"
#include "flightrec/container/throttle/throttle_episodes.h"

namespace flightrec::container {

// Reports that never became part of an episode.
struct ThrottleLosses {
  uint64_t dropped = 0;  // the kernel's buffer was full: drain() was not called often enough
  // Sightings of a throttled queue the program could not follow: its CPU already followed 64
  uint64_t untracked = 0;
  uint64_t abandoned = 0;  // a span's end never came (AssemblerSettings::abandon_ns)
};

class EpisodeRecorder {
 public:
  virtual ~EpisodeRecorder() = default;
  // Reads the kernel's reports since the last call without blocking and appends the episodes that
  // can no longer grow, each group's oldest first.
  virtual void drain(std::vector<ThrottleEpisode>& out) = 0;
  // Each group's totals over the episodes drained so far, by cgroup id.
  [[nodiscard]] virtual const std::map<uint64_t, ThrottleTotals>& totals() const = 0;
  // The CPUs' queues throttled as of the last drain().
  [[nodiscard]] virtual std::vector<ThrottleSpan> throttled_now() const = 0;
  [[nodiscard]] virtual ThrottleLosses losses() const = 0;
};

// Loads and attaches the BPF program; it stays attached for the recorder's lifetime. An error
// saying why when it cannot run here (built without eBPF, not permitted, no kernel BTF); throttling
// is then known only from cpu.stat's counters.
Result<std::unique_ptr<EpisodeRecorder>> make_episode_recorder(AssemblerSettings settings = {});

}  // namespace flightrec::container
