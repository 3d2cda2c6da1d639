#pragma once
// Names for containers, from the node alone: the kubelet's log directories and the runtimes'
// state files (name_settings.h says which), read-only and never over the network. Looked at for
// changes every rescan period (a stat per source; a source is re-read only when it changed),
// and sooner when asked about a container none of them knows. A container that leaves every
// source keeps its names for the grace period, so a recording can still name one that exited.
//
// Thread-safe; a lookup that finds a rescan due does it on the caller's thread, so it belongs on
// the container tier's slow thread, not on the sampler's tick.
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "flightrec/container/names/container_names.h"
#include "flightrec/container/names/name_settings.h"

namespace flightrec::container::names {

struct NameStats {
  uint64_t lookups = 0;
  uint64_t unnamed = 0;     // lookups no source could answer at all
  uint64_t checks = 0;      // a source looked at for changes (one stat)
  uint64_t rescans = 0;     // ... that found it changed and read it again
  uint64_t files_read = 0;  // state files read and parsed
  uint64_t problems = 0;    // unreadable or malformed files and entries, limits reached
  size_t containers = 0;    // ids some source names now, the gone ones in their grace included
  size_t gone = 0;          // ... of which only the grace period keeps the names
};

namespace detail {
class NameSource;
}  // namespace detail

class NameResolver {
 public:
  // The monotonic time in ns (the grace and rescan periods are measured on it).
  using Clock = std::function<int64_t()>;

  explicit NameResolver(NameSettings settings);
  NameResolver(NameSettings settings, Clock clock);
  NameResolver(const NameResolver&) = delete;
  NameResolver& operator=(const NameResolver&) = delete;
  ~NameResolver();

  // What the node calls container `id` (64 hex digits), with `pod_uid` as a kubepods cgroup
  // path spells it when the caller knows it ("" otherwise): the pod's names come from its log
  // directory even when nothing names the container itself. Nothing when no source knows either.
  [[nodiscard]] std::optional<ContainerNames> resolve(std::string_view id,
                                                      std::string_view pod_uid = {});

  // Looks at every source for changes now, as a lookup does when the rescan period has passed:
  // for a caller that wants the names read before its first lookup.
  void refresh();

  // What went wrong since the last call, each problem once, one printable line each ("<file>:
  // Config.Labels: expected an object, got array"), for the caller's log; at most 64 are kept.
  [[nodiscard]] std::vector<std::string> take_problems();

  [[nodiscard]] NameStats stats() const;

 private:
  void refresh_locked(int64_t now_ns);
  [[nodiscard]] std::optional<ContainerNames> lookup_locked(std::string_view id,
                                                            const std::string& pod_uid) const;

  NameSettings settings_;
  Clock clock_;
  mutable std::mutex mutex_;
  // The pods of /var/log/pods by uid; every other source's containers by id, in the order their
  // names are trusted (the kubelet's own before the runtimes').
  std::unique_ptr<detail::NameSource> pods_;
  std::vector<std::unique_ptr<detail::NameSource>> containers_;
  int64_t next_refresh_ns_ = 0;
  int64_t next_miss_refresh_ns_ = 0;
  std::vector<std::string> problems_;
  NameStats stats_;
};

}  // namespace flightrec::container::names
