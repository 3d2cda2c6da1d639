#include "flightrec/container/cgroups/container_discovery.h"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <string_view>
#include <system_error>
#include <unordered_set>
#include <utility>

namespace flightrec::container {
namespace {

namespace fs = std::filesystem;

struct Found {
  std::string path;
  ContainerIdentity identity;
};

bool directory_exists(const fs::path& path) {
  std::error_code ignored;
  return fs::is_directory(path, ignored);
}

bool by_path(const ContainerRef& a, const ContainerRef& b) { return a.path < b.path; }

// The directory's inode: on cgroup v2 and in v1's cpu hierarchy, the kernel's id of the cgroup
// (its kernfs node id), which the throttle recorder reports episodes by. 0 when it cannot be read.
uint64_t inode_of(const fs::path& dir) {
  struct stat info {};
  return !dir.empty() && ::stat(dir.c_str(), &info) == 0 ? static_cast<uint64_t>(info.st_ino) : 0;
}

}  // namespace

ContainerDiscovery::ContainerDiscovery(CgroupLayout layout, ContainerMatcher matcher,
                                       DiscoveryLimits limits)
    : layout_(std::move(layout)), matcher_(std::move(matcher)), limits_(limits) {}

ContainerRef ContainerDiscovery::locate(std::string path, ContainerIdentity identity) const {
  ContainerRef ref;
  for (size_t i = 0; i < kControllerCount; ++i) {
    const fs::path hierarchy = layout_.hierarchy(static_cast<Controller>(i));
    if (hierarchy.empty()) continue;
    fs::path dir = cgroup_dir(hierarchy, path);
    if (directory_exists(dir)) ref.dirs[i] = std::move(dir);
  }
  if (!layout_.unified.empty()) {
    fs::path dir = cgroup_dir(layout_.unified, path);
    if (directory_exists(dir)) ref.pressure_dir = std::move(dir);
  }
  // The CPU controller's group is the one CFS throttles (on v2 it is the unified directory).
  ref.cgroup_id = inode_of(ref.dir(Controller::cpu));
  ref.path = std::move(path);
  ref.identity = std::move(identity);
  return ref;
}

Result<DiscoveryChanges> ContainerDiscovery::refresh() {
  const fs::path root = layout_.walk_root();
  DiscoveryChanges changes;
  std::vector<Found> found;
  // Depth-first over (path relative to the root, depth); the root's own listing must succeed.
  std::vector<std::pair<std::string, size_t>> pending{{"", 0}};
  while (!pending.empty()) {
    auto [relative, depth] = std::move(pending.back());
    pending.pop_back();
    std::error_code error;
    fs::directory_iterator it(cgroup_dir(root, relative), error);
    if (error) {
      if (relative.empty()) return Error{"cannot list " + root.string() + ": " + error.message()};
      continue;  // removed since its parent was listed: a container that just went
    }
    ++changes.directories;
    for (const fs::directory_iterator end; !error && it != end; it.increment(error)) {
      std::error_code ignored;
      if (!it->is_directory(ignored)) continue;
      std::string child = relative + "/" + it->path().filename().string();
      if (std::optional<ContainerIdentity> identity = matcher_.match(child)) {
        found.push_back({std::move(child), std::move(*identity)});
      } else if (depth + 1 < limits_.max_depth) {
        pending.emplace_back(std::move(child), depth + 1);
      }
    }
  }
  std::sort(found.begin(), found.end(),
            [](const Found& a, const Found& b) { return a.path < b.path; });

  // Keep the tracked containers still there, then take new ones in path order while there is room.
  std::vector<ContainerRef> kept;
  {
    std::unordered_set<std::string_view> present;
    for (const Found& candidate : found) present.insert(candidate.path);
    for (ContainerRef& ref : tracked_) {
      (present.contains(ref.path) ? kept : changes.removed).push_back(std::move(ref));
    }
  }
  std::unordered_set<std::string_view> known;
  for (const ContainerRef& ref : kept) known.insert(ref.path);
  size_t tracked_count = kept.size();
  for (Found& candidate : found) {
    if (known.contains(candidate.path)) continue;
    if (tracked_count >= limits_.max_containers) {
      ++changes.untracked;
      continue;
    }
    changes.added.push_back(locate(std::move(candidate.path), std::move(candidate.identity)));
    ++tracked_count;
  }
  tracked_ = std::move(kept);
  tracked_.insert(tracked_.end(), changes.added.begin(), changes.added.end());
  std::sort(tracked_.begin(), tracked_.end(), by_path);
  return changes;
}

}  // namespace flightrec::container
