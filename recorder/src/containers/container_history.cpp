#include "flightrec/recorder/containers/container_history.h"

#include <algorithm>
#include <unordered_set>

namespace flightrec::recorder::containers {
namespace {

container::ContainerRow row_of(const ContainerView& view) {
  const ContainerInfo& info = *view.info;
  return {.path = info.ref.path,
          .id = info.ref.identity.id,
          .runtime = info.ref.identity.runtime,
          .qos = info.ref.identity.qos,
          .cgroup_id = info.ref.cgroup_id,
          .pod_namespace = info.names.pod_namespace,
          .pod = info.names.pod,
          // The path's uid, for a pod whose names are not known (yet).
          .pod_uid = info.names.pod_uid.empty() ? info.ref.identity.pod_uid : info.names.pod_uid,
          .container = info.names.container,
          .name = info.names.name,
          .image = info.names.image,
          .stats = view.stats,
          .read_ok = view.read_ok,
          .fast = view.signals.fast,
          .cpu_cores = view.signals.cpu_cores,
          .throttled_periods_ratio = view.signals.throttled_periods_ratio,
          .throttled_share = view.signals.throttled_share,
          .memory_fill = view.signals.memory_fill};
}

}  // namespace

container::ContainerFrame make_container_frame(const FrameParts& parts) {
  container::ContainerFrame frame;
  frame.time_unix_ns = parts.time_unix_ns;
  frame.mono_ns = parts.snapshot.mono_ns;
  frame.mode = parts.snapshot.mode;
  frame.untracked = static_cast<uint32_t>(parts.snapshot.untracked);
  frame.episodes_recorded = parts.episodes_recorded;
  frame.containers.reserve(parts.snapshot.containers.size());
  std::unordered_set<uint64_t> cgroup_ids;
  for (const ContainerView& view : parts.snapshot.containers) {
    frame.containers.push_back(row_of(view));
    if (view.info->ref.cgroup_id != 0) cgroup_ids.insert(view.info->ref.cgroup_id);
  }
  // The snapshot goes by path, as discovery keeps the containers; the frame promises it.
  std::sort(frame.containers.begin(), frame.containers.end(),
            [](const auto& a, const auto& b) { return a.path < b.path; });
  for (const PendingFastRead& pending : parts.fast_reads) {
    const auto at =
        std::lower_bound(frame.containers.begin(), frame.containers.end(), pending.info->ref.path,
                         [](const container::ContainerRow& row, const std::string& path) {
                           return row.path < path;
                         });
    if (at == frame.containers.end() || at->path != pending.info->ref.path) continue;  // gone
    container::FastRead read = pending.read;
    read.row = static_cast<uint32_t>(at - frame.containers.begin());
    frame.fast_reads.push_back(read);
  }
  for (const container::ThrottleEpisode& episode : parts.episodes) {
    if (cgroup_ids.contains(episode.cgroup_id)) frame.episodes.push_back(episode);
  }
  return frame;
}

}  // namespace flightrec::recorder::containers
