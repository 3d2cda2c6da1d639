#pragma once
// The container tier's history: what one slow round leaves in the container ring. The tier's
// snapshot of the round (every container with its reads and signals), the fast tier's reads
// since the round before and the throttling episodes drained meanwhile become one
// container::ContainerFrame (container/frame/container_frame.h).
#include <cstdint>
#include <memory>
#include <span>

#include "flightrec/container/frame/container_frame.h"
#include "flightrec/container/throttle/throttle_episodes.h"
#include "flightrec/recorder/containers/container_snapshot.h"

namespace flightrec::recorder::containers {

// A fast-tier read as the tier took it: whose (the container may be gone by the next frame) and
// what. `read.row` is set when the frame is made.
struct PendingFastRead {
  std::shared_ptr<const ContainerInfo> info;
  container::FastRead read;
};

struct FrameParts {
  const ContainerTierSnapshot& snapshot;
  int64_t time_unix_ns = 0;  // CLOCK_REALTIME of the round; snapshot.mono_ns is its monotonic time
  std::span<const PendingFastRead> fast_reads;           // oldest first
  std::span<const container::ThrottleEpisode> episodes;  // of every group on the host
  bool episodes_recorded = false;                        // an episode recorder ran
};

// The frame of one slow round: a row per container of the snapshot, the fast reads of the
// containers still there, and the episodes of those containers (by cgroup id); the episodes of
// groups that are not tracked containers are left out.
[[nodiscard]] container::ContainerFrame make_container_frame(const FrameParts& parts);

}  // namespace flightrec::recorder::containers
