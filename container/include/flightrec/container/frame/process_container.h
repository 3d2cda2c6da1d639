#pragma once
// Which container a process belongs to, by what its process row carries (its cgroup path and the
// runtime id found in it, process/pid_cgroup.h), looked up in one container frame's rows: the
// join that lets replay's Processes tab and /dump name each process's container.
// docs/CONTAINERS.md "Processes and their containers".
#include <cstdint>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "flightrec/container/frame/container_frame.h"

namespace flightrec::container {

class ContainerLookup {
 public:
  ContainerLookup() = default;
  // The rows must outlive the lookup.
  explicit ContainerLookup(const ContainerFrame& frame);
  explicit ContainerLookup(std::vector<const ContainerRow*> rows);

  // The row whose id is the process's runtime id, else the row whose cgroup is the process's
  // cgroup or the nearest one above it (a service's or a path regex's processes carry no runtime
  // id, and systemd inside a container puts them below it: /docker/<id>/init.scope). Null for a
  // process of the host, or of a container the frame does not hold.
  [[nodiscard]] const ContainerRow* find(std::string_view cgroup,
                                         std::string_view container_id) const;

 private:
  std::vector<const ContainerRow*> by_path_;  // ascending path
  std::unordered_map<std::string_view, const ContainerRow*> by_id_;
};

// The index of the frame nearest in time to `time_ns` among frames ascending in time (the earlier
// of two equally near), or -1 when there are none. `time_of(frame)` gives a frame's time, so frames
// of any form (decoded, stored) are chosen alike.
template <typename Frames, typename TimeOf>
[[nodiscard]] int64_t nearest_frame(const Frames& frames, int64_t time_ns, TimeOf time_of) {
  if (frames.empty()) return -1;
  size_t low = 0;
  size_t high = frames.size();  // the first frame after time_ns is in [low, high]
  while (low < high) {
    const size_t mid = low + (high - low) / 2;
    if (time_of(frames[mid]) <= time_ns) {
      low = mid + 1;
    } else {
      high = mid;
    }
  }
  if (low == 0) return 0;
  if (low == frames.size()) return static_cast<int64_t>(low - 1);
  const int64_t before = time_ns - time_of(frames[low - 1]);
  const int64_t after = time_of(frames[low]) - time_ns;
  return static_cast<int64_t>(after < before ? low : low - 1);
}

}  // namespace flightrec::container
