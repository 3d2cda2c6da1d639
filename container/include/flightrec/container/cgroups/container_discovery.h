#pragma once
// Finds the containers' cgroups and, asked again, which came and which went. Walks the v2
// hierarchy, or on a hybrid host the v1 hierarchy CgroupLayout::walk_root names, mapping each
// container's path into the other controllers' hierarchies. A container's own sub-cgroups
// (systemd's init.scope inside it, a runtime's "container" child) are its and are not walked.
#include <cstddef>
#include <string>
#include <vector>

#include "flightrec/common/result.h"
#include "flightrec/container/cgroups/cgroup_layout.h"
#include "flightrec/container/cgroups/container_matcher.h"
#include "flightrec/container/cgroups/container_ref.h"

namespace flightrec::container {

struct DiscoveryLimits {
  // Containers tracked at once; the others found are counted, not tracked.
  size_t max_containers = 1000;
  // Levels below the root walked: kubepods containers are 4 deep, rootless Podman's 5.
  size_t max_depth = 8;
};

struct DiscoveryChanges {
  std::vector<ContainerRef> added;    // tracked since the last refresh, sorted by path
  std::vector<ContainerRef> removed;  // gone since the last refresh (or never to be tracked)
  size_t untracked = 0;               // found but over max_containers this time
  size_t directories = 0;             // cgroup directories this walk looked at
};

class ContainerDiscovery {
 public:
  ContainerDiscovery(CgroupLayout layout, ContainerMatcher matcher, DiscoveryLimits limits = {});

  // Walks the hierarchy once. The containers already tracked stay tracked while they exist, so a
  // container over the limit waits for a place rather than displacing one; new ones are taken in
  // path order. A directory that vanishes during the walk is skipped; an error only when the walk
  // root cannot be listed (nothing is changed then).
  Result<DiscoveryChanges> refresh();

  // The tracked containers, sorted by path.
  [[nodiscard]] const std::vector<ContainerRef>& tracked() const { return tracked_; }
  [[nodiscard]] const CgroupLayout& layout() const { return layout_; }

 private:
  // The container at `path`, with its directory in each hierarchy that has it.
  [[nodiscard]] ContainerRef locate(std::string path, ContainerIdentity identity) const;

  CgroupLayout layout_;
  ContainerMatcher matcher_;
  DiscoveryLimits limits_;
  std::vector<ContainerRef> tracked_;
};

}  // namespace flightrec::container
