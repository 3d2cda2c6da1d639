#pragma once
// Tells which of many files the kernel reported as modified, without reading them: one inotify
// descriptor and a watch per file. For cgroup v2's memory.events, which the kernel notifies on
// each change (cgroup_file_notify, at most once per 10 ms per file), so the tier reads it only
// after a change instead of every container's at every slow round. v1's memory.failcnt and
// memory.oom_control are not notified: those are read at every round. docs/CONTAINERS.md "How
// often each container is read".
#include <filesystem>
#include <vector>

#include "flightrec/common/fd.h"
#include "flightrec/common/result.h"

namespace flightrec::container {

class EventsWatch {
 public:
  // An error naming why when inotify is not available (the tier then reads the files every round).
  static Result<EventsWatch> create();

  // Watches `path` for modification; the watch's id, or an error naming the path. The kernel drops
  // the watch itself when the file goes (its cgroup removed).
  Result<int> add(const std::filesystem::path& path);
  // Stops watching; an id the kernel already dropped is ignored.
  void remove(int watch);
  // The ids of the files modified since the last call, each once, in no set order; none when
  // nothing changed (it never blocks).
  std::vector<int> take_changed();

 private:
  explicit EventsWatch(Fd fd) : fd_(std::move(fd)) {}
  Fd fd_;
};

}  // namespace flightrec::container
