#include "flightrec/container/cgroups/cgroup_layout.h"

#include <algorithm>
#include <string>
#include <system_error>
#include <vector>

namespace flightrec::container {
namespace {

namespace fs = std::filesystem;

constexpr std::array<std::string_view, kControllerCount> kV1Names{"cpu", "cpuacct", "memory",
                                                                  "blkio", "pids"};

// The v1 controller a directory name's comma-separated part names, or kControllerCount.
size_t v1_controller(std::string_view name) {
  const auto found = std::find(kV1Names.begin(), kV1Names.end(), name);
  return static_cast<size_t>(found - kV1Names.begin());
}

bool path_exists(const fs::path& path) {
  std::error_code ignored;
  return fs::exists(path, ignored);
}

}  // namespace

std::string_view controller_name(Controller controller, CgroupMode mode) {
  if (controller == Controller::io && mode == CgroupMode::unified) return "io";
  return kV1Names[static_cast<size_t>(controller)];
}

std::string_view mode_name(CgroupMode mode) {
  return mode == CgroupMode::unified ? "unified" : "hybrid";
}

fs::path CgroupLayout::hierarchy(Controller controller) const {
  if (mode == CgroupMode::hybrid) return v1[static_cast<size_t>(controller)];
  return controller == Controller::cpuacct ? fs::path() : unified;
}

fs::path CgroupLayout::walk_root() const {
  if (mode == CgroupMode::unified) return unified;
  for (const Controller controller : {Controller::cpu, Controller::cpuacct, Controller::memory,
                                      Controller::pids, Controller::io}) {
    if (!v1[static_cast<size_t>(controller)].empty()) return v1[static_cast<size_t>(controller)];
  }
  return {};
}

Result<CgroupLayout> detect_cgroup_layout(const sampler::ProcRoot& root) {
  const fs::path& base = root.cgroupfs;
  CgroupLayout layout;
  if (path_exists(base / "cgroup.controllers")) {
    layout.unified = base;
    return layout;
  }
  layout.mode = CgroupMode::hybrid;
  std::error_code error;
  std::vector<fs::directory_entry> entries;
  for (fs::directory_iterator it(base, error), end; !error && it != end; it.increment(error)) {
    entries.push_back(*it);
  }
  if (error) return Error{"cannot list " + base.string() + ": " + error.message()};
  // Sorted, so that which of two equal candidates wins does not depend on readdir's order.
  std::sort(entries.begin(), entries.end());
  std::array<bool, kControllerCount> from_symlink{};
  for (const fs::directory_entry& entry : entries) {
    std::error_code ignored;
    if (!entry.is_directory(ignored)) continue;  // follows a symlink to its target
    const std::string name = entry.path().filename().string();
    if (name == "unified" && path_exists(entry.path() / "cgroup.controllers")) {
      layout.unified = entry.path();
      continue;
    }
    if (!path_exists(entry.path() / "cgroup.procs")) continue;  // an empty mount point
    const bool symlink = entry.is_symlink(ignored);
    std::string_view rest = name;
    while (!rest.empty()) {
      const size_t comma = rest.find(',');
      const size_t controller = v1_controller(rest.substr(0, comma));
      rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
      if (controller == kControllerCount) continue;
      // cpu -> cpu,cpuacct: keep the directory's own name rather than its alias.
      if (layout.v1[controller].empty() || (from_symlink[controller] && !symlink)) {
        layout.v1[controller] = entry.path();
        from_symlink[controller] = symlink;
      }
    }
  }
  if (layout.walk_root().empty()) {
    return Error{base.string() +
                 " holds no cgroup hierarchy: no cgroup.controllers (cgroup v2) and no "
                 "directory named for a v1 controller (cpu, cpuacct, memory, blkio, pids) that "
                 "holds cgroup.procs"};
  }
  return layout;
}

}  // namespace flightrec::container
