#pragma once
// The containers at the cursor: the newest container frame at or before it, each row with its
// rates over the interval to an earlier frame, by process_view.h's rule (the newest frame at least
// interval_ns before the cursor's, else the frame just before it). A container is matched across
// the two frames by its cgroup path and id, so one that came since has no rate yet, and a counter
// that went back (a cgroup made again under the same path) gives no value, never a negative one.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "flightrec/container/frame/container_frame.h"

namespace flightrec::replay {

struct ContainerRates {
  const container::ContainerRow* row = nullptr;
  std::string name;             // printable: container_name()
  std::optional<double> cpu;    // CPU seconds per second: 1.0 = one core busy
  std::optional<double> quota;  // the CFS quota in cores (quota / period); none without a quota
  // Of the CFS periods in the interval (those in which the group could run): the share in which
  // it was throttled (Δnr_throttled / Δnr_periods), and the throttled time per period in ms
  // (Δthrottled time / Δnr_periods, summed over the CPUs it was throttled on). None without a
  // quota.
  std::optional<double> throttled_ratio;
  std::optional<double> throttled_ms;
  std::optional<double> memory_bytes;
  std::optional<double> limit_bytes;  // none without a limit
  std::optional<double> high_bytes;   // memory.high (v2); none without one
  std::optional<double> memory_fill;  // memory / limit
  // memory.events increments over the interval (v1: max from failcnt, oom_kill from oom_control).
  std::optional<double> events_high, events_max, events_oom_kill;
  // PSI "some": the share of the interval in which some task of the group stalled.
  std::optional<double> cpu_pressure, memory_pressure, io_pressure;
  std::optional<double> read_bps, write_bps;  // all devices
  std::optional<double> cpu_time_seconds;     // usage since the cgroup was made
  std::optional<double> tasks;                // pids.current
};

struct ContainersAt {
  const container::ContainerFrame* frame = nullptr;     // none before the first frame
  const container::ContainerFrame* previous = nullptr;  // what the rates start from
  std::vector<ContainerRates> rows;                     // frame->containers' order
};

// `frames` ascending in time.
ContainersAt containers_at(const std::vector<container::ContainerFrame>& frames, int64_t time_ns,
                           int64_t interval_ns);

// How a container is named on screen: container::display_name() in printable ASCII (names are what
// the node's files said).
std::string container_name(const container::ContainerRow& row);

}  // namespace flightrec::replay
