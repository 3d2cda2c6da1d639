#pragma once
// One slow round of the container tier, as history: every tracked container's identity, names,
// cgroup reads and what the tier derived from them, the fast tier's reads since the round before,
// and the throttling episodes the kernel reported in between. The container ring stores these
// frames (encoded, container_frame_codec.h), recordings and /dump carry them, replay and the viewer
// read them. docs/CONTAINERS.md "Container frames".
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "flightrec/container/cgroups/cgroup_layout.h"
#include "flightrec/container/cgroups/cgroup_stats.h"
#include "flightrec/container/cgroups/container_ref.h"
#include "flightrec/container/throttle/throttle_episodes.h"

namespace flightrec::container {

// One container at the frame's slow round. Names are as the node's files gave them (empty when
// unknown); whoever prints them escapes them (names/container_names.h says why).
struct ContainerRow {
  std::string path;  // the cgroup path, as /proc/<pid>/cgroup shows it: the row's key
  std::string id;    // ContainerIdentity::id
  Runtime runtime = Runtime::custom;
  QosClass qos = QosClass::none;
  // The cgroup directory's inode: the kernel's cgroup id, which ThrottleEpisode::cgroup_id names.
  // 0 when it could not be read.
  uint64_t cgroup_id = 0;
  std::string pod_namespace;
  std::string pod;
  std::string pod_uid;
  std::string container;
  std::string name;  // the runtime's own name
  std::string image;
  // The newest value of every field: the counters of this round, the files read only every
  // containers.detail_rate (limits, memory.stat, I/O, PSI) as of their last read.
  CgroupStats stats;
  bool read_ok = false;  // every file of the round's read succeeded
  bool fast = false;     // chosen for the fast tier by this round
  // Derived over the slow round that ended at the frame (recorder/containers/cpu_signals.h):
  std::optional<double> cpu_cores;                // CPU seconds per second
  std::optional<double> throttled_periods_ratio;  // nr_throttled / nr_periods
  std::optional<double> throttled_share;  // throttled time per period, of the newest resolved
  std::optional<double> memory_fill;      // usage / limit, when there is a limit
  bool operator==(const ContainerRow&) const = default;
};

// One fast-tier read of a container between the previous frame and this one: the counters that
// resolve each CFS period at containers.fast_rate.
struct FastRead {
  int64_t time_unix_ns = 0;  // CLOCK_REALTIME of the read
  uint32_t row = 0;          // index into ContainerFrame::containers
  int64_t usage_us = sampler::kAbsent;
  int64_t periods = sampler::kAbsent;
  int64_t throttled_periods = sampler::kAbsent;
  int64_t throttled_us = sampler::kAbsent;
  // Read only for a container near its memory limit (the others are in the fast tier for their
  // CPU): kAbsent otherwise.
  int64_t memory_usage_bytes = sampler::kAbsent;
  bool operator==(const FastRead&) const = default;
};

struct ContainerFrame {
  // CLOCK_REALTIME when the slow round began: the clock of ProcessFrame and of recordings.
  int64_t time_unix_ns = 0;
  // CLOCK_MONOTONIC at the same moment: episodes are monotonic times, and
  // `time_unix_ns - mono_ns` turns them into wall time.
  int64_t mono_ns = 0;
  CgroupMode mode = CgroupMode::unified;
  std::vector<ContainerRow> containers;  // ascending path
  uint32_t untracked = 0;                // found beyond containers.max
  std::vector<FastRead> fast_reads;      // ascending time
  // Whether the kernel's throttling episodes were recorded (eBPF) over this frame's span; without
  // them a reader draws the period strip from the fast reads' cpu.stat deltas instead.
  bool episodes_recorded = false;
  // The episodes of these containers (by cgroup_id) that ended since the previous frame.
  std::vector<ThrottleEpisode> episodes;
  bool operator==(const ContainerFrame&) const = default;
};

// The row of `frame` whose cgroup is `cgroup_id`, or nothing.
[[nodiscard]] const ContainerRow* find_by_cgroup_id(const ContainerFrame& frame,
                                                    uint64_t cgroup_id);

}  // namespace flightrec::container
