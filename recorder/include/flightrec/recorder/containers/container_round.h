#pragma once
// What the container tier hands an observer after each round it read (container triggers, the
// directory of names that alert scope and OOM naming ask): the containers whose read succeeded,
// with the newest counters. A slow round reads every tracked container and every file; a fast
// round only the fast tier's, and of those only the CPU counters and the memory usage move.
// Valid during the call only: the observer copies what it keeps.
#include <cstdint>
#include <functional>
#include <memory>
#include <span>

#include "flightrec/container/cgroups/cgroup_stats.h"
#include "flightrec/recorder/containers/container_snapshot.h"

namespace flightrec::recorder::containers {

struct ContainerRead {
  std::shared_ptr<const ContainerInfo> info;  // shared, as the snapshots share it
  const container::CgroupStats* stats;
};

struct ContainerRound {
  int64_t mono_ns = 0;  // when the round read (CLOCK_MONOTONIC)
  bool slow = false;
  std::span<const ContainerRead> reads;
};

// Called on the container tier's thread: it must not block (it delays the next round).
using RoundObserver = std::function<void(const ContainerRound&)>;

}  // namespace flightrec::recorder::containers
