#pragma once
// Which containers ran on this node lately, by cgroup path, as the container tier read them:
// every container of each slow round, kept `keep` (buffer.duration) after it was last seen, since
// what asks usually comes after the container is gone (an OOM-killed container's cgroup is removed
// before its incident is written; an alert about a crashed pod arrives after the crash). Two
// readers ask:
// - alert scope (AlertReceiver): an alert whose labels name a container (namespace, pod,
//   container, container_id, id) is this node's only when such a container ran here;
// - the OOM namer (OomVictimNamer): the container of the victim's memory cgroup.
// observe() runs on the container tier's thread and the questions on any other; a lock held for
// a map update or a lookup is all they share.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "flightrec/config/alert_matchers.h"
#include "flightrec/recorder/containers/container_round.h"

namespace flightrec::trigger {

// What an alert's labels say about where it belongs.
enum class ContainerScope : uint8_t {
  unnamed,    // no container label, or no container seen yet (the tier off, or before its first
              // round): the node filter (incidents.alerts.match) alone decides
  here,       // a container the labels name ran on this node
  elsewhere,  // the labels name a container, and none such ran here
};

// The alert labels that name a container, read as cAdvisor and kube-state-metrics write them.
inline constexpr std::string_view kScopeLabels[] = {"namespace", "pod", "container", "container_id",
                                                    "id"};

class ContainerDirectory {
 public:
  static constexpr size_t kDefaultMaxKept = 4096;

  explicit ContainerDirectory(std::chrono::nanoseconds keep, size_t max_kept = kDefaultMaxKept)
      : keep_ns_(keep.count()), max_kept_(max_kept) {}

  // The container tier's thread: remembers the containers of each slow round.
  void observe(const recorder::containers::ContainerRound& round);

  // The container whose cgroup is `cgroup_path` or one of its ancestors (a process in a cgroup
  // below its container's: a pod's container under the pod, a sub-cgroup a runtime made);
  // nothing when none was seen within `keep`.
  [[nodiscard]] std::shared_ptr<const recorder::containers::ContainerInfo> by_cgroup(
      std::string_view cgroup_path) const;

  [[nodiscard]] ContainerScope scope_of(const config::AlertLabels& labels) const;

 private:
  struct Seen {
    std::shared_ptr<const recorder::containers::ContainerInfo> info;
    int64_t last_seen_ns = 0;
  };
  // With mutex_ held: whether the entry is recent enough to count.
  [[nodiscard]] bool recent(const Seen& seen) const {
    return newest_ns_ - seen.last_seen_ns <= keep_ns_;
  }

  const int64_t keep_ns_;
  const size_t max_kept_;
  mutable std::mutex mutex_;
  std::map<std::string, Seen, std::less<>> seen_;  // by cgroup path; guarded by mutex_
  int64_t newest_ns_ = 0;                          // the last slow round's time
  bool observed_ = false;
};

}  // namespace flightrec::trigger
