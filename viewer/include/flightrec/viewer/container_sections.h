#pragma once
// The incident viewer's container sections: the containers a window of container frames shows
// something of (throttled, memory.events high, max or oom_kill, or among the busiest by CPU or
// memory; every one when there are few), each with its limits, its memory and CPU over the window
// and its period strip (container/frame/frame_strip.h). See docs/VIEWER.md.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "flightrec/container/frame/container_frame.h"
#include "flightrec/container/frame/frame_strip.h"
#include "flightrec/store/cursor.h"

namespace flightrec::viewer {

// Up to this many containers in the window, every one gets a section.
inline constexpr size_t kAllContainersUpTo = 6;
// The busiest by CPU and by memory that get a section whatever else.
inline constexpr size_t kTopContainers = 3;
inline constexpr size_t kMaxContainerSections = 12;
// The strip's cells at most: 10 minutes of 100 ms periods.
inline constexpr size_t kMaxStripCells = 6000;

struct ContainerSection {
  std::string name;  // container::display_name(), as recorded: the page escapes it
  std::string path;  // its cgroup path
  std::string id;
  std::string image;
  // Why it is shown, in this order: "throttled", "memory events", "top CPU", "top memory"; or
  // "few containers" when none of those holds but the window has at most kAllContainersUpTo.
  std::vector<std::string> reasons;
  std::optional<double> quota_cores;  // quota / period; none without a quota
  int64_t period_ns = 0;
  std::optional<double> memory_limit_bytes;  // none without a limit
  std::optional<double> memory_high_bytes;
  // Over the window, from its first frame to its last (0 when it is in one frame only).
  int64_t throttled_periods = 0;
  int64_t periods = 0;
  int64_t events_high = 0, events_max = 0, events_oom_kill = 0;
  // One point per frame that holds it; CPU from the frame before (none at its first).
  std::vector<int64_t> times_ns;
  std::vector<std::optional<double>> memory_bytes;
  std::vector<std::optional<double>> cpu_cores;
  container::ContainerStrip strip;  // up to its last frame in the window
};

// `frames` in ascending time; only those within `range` are looked at. Most interesting first:
// the throttled (most throttled periods first), then those with memory events, then the busiest.
std::vector<ContainerSection> container_sections(
    const std::vector<container::ContainerFrame>& frames, store::TimeRange range = {},
    size_t max_sections = kMaxContainerSections);

}  // namespace flightrec::viewer
