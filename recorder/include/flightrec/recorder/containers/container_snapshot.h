#pragma once
// What the container tier shows its readers (/metrics): every tracked container as of the last
// slow round, immutable once published, shared through a shared_ptr as the rings' snapshots are.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "flightrec/container/cgroups/cgroup_layout.h"
#include "flightrec/container/cgroups/cgroup_stats.h"
#include "flightrec/container/cgroups/container_ref.h"
#include "flightrec/container/names/container_names.h"

namespace flightrec::recorder::containers {

// Who a container is: its cgroup as discovery found it, and its names as the node knows them
// (empty fields when unknown). Shared between snapshots while it does not change.
struct ContainerInfo {
  container::ContainerRef ref;
  container::names::ContainerNames names;
};

// What the tier derived from the container's successive reads (cpu_signals.h); nothing where the
// reads did not allow a value.
struct ContainerSignals {
  std::optional<double> cpu_cores;                // over the last slow round
  std::optional<double> throttled_periods_ratio;  // over the last slow round
  std::optional<double> throttled_share;          // of the newest CFS period resolved
  std::optional<double> throttled_share_max;      // the largest over export.window
  std::optional<double> memory_usage_max;         // bytes: the largest over export.window
  std::optional<double> memory_fill;              // usage / limit, when there is a limit
  bool fast = false;                              // in the fast tier until the next slow round
};

struct ContainerView {
  std::shared_ptr<const ContainerInfo> info;
  // The newest reads: every field from the last slow round, the CPU counters and memory usage
  // from the fast tier's read when that came later. kAbsent where a file is missing or failed.
  container::CgroupStats stats;
  bool read_ok = false;  // the last read of every file succeeded
  ContainerSignals signals;
};

struct ContainerTierSnapshot {
  int64_t mono_ns = 0;  // when the slow round that made it ended
  container::CgroupMode mode = container::CgroupMode::unified;
  std::vector<ContainerView> containers;  // by cgroup path
  size_t untracked = 0;                   // found beyond containers.max
};

}  // namespace flightrec::recorder::containers
