#pragma once
// Where each cgroup controller's hierarchy is under an injectable cgroupfs root
// (ProcRoot::cgroupfs, the daemon's --path.cgroupfs): the one v2 hierarchy, or a hybrid host's
// v1 hierarchies (cpu, cpuacct, memory, blkio, pids, each its own mount or several sharing one,
// as cpu,cpuacct) beside an optional v2 mount at unified/ that holds the PSI files.
//
// Found by looking at the root's directories, not by reading the mount table: the table names
// mount points as the host's namespace sees them, which is not the root flightrec was given when
// it runs in a container with the host's /sys/fs/cgroup mounted elsewhere (/host/sys/fs/cgroup),
// and the directories are exactly what the readers will open. docs/CONTAINERS.md.
#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string_view>

#include "flightrec/common/result.h"
#include "flightrec/sampler/proc_root.h"

namespace flightrec::container {

enum class CgroupMode : uint8_t {
  unified,  // cgroup v2: one hierarchy at the root with every controller
  hybrid,   // cgroup v1 controller hierarchies, with or without a v2 mount at unified/
};

// The controllers read; `io` is v1's blkio.
enum class Controller : uint8_t { cpu, cpuacct, memory, io, pids };
inline constexpr size_t kControllerCount = 5;

// "cpu", "cpuacct", "memory", "blkio" on v1 or "io" on v2, "pids".
std::string_view controller_name(Controller controller, CgroupMode mode);
std::string_view mode_name(CgroupMode mode);  // "unified", "hybrid"

struct CgroupLayout {
  CgroupMode mode = CgroupMode::unified;
  // The v2 hierarchy: the root in unified mode; <root>/unified on a hybrid host that mounts it;
  // empty otherwise.
  std::filesystem::path unified;
  // Hybrid mode: each controller's v1 hierarchy, empty when it is not mounted. Unused in unified
  // mode.
  std::array<std::filesystem::path, kControllerCount> v1;

  // The hierarchy that holds `controller`'s files; empty when none does (cpuacct on v2, whose
  // cpu.stat has the usage).
  [[nodiscard]] std::filesystem::path hierarchy(Controller controller) const;
  // The hierarchy that discovery walks: the v2 one, or on a hybrid host the first mounted of
  // cpu, cpuacct, memory, pids, blkio (containers get a cgroup in each; cpu is where runtimes
  // always make one).
  [[nodiscard]] std::filesystem::path walk_root() const;
};

// v2 when <cgroupfs>/cgroup.controllers exists; else every directory under <cgroupfs> whose name
// lists v1 controllers ("memory", "cpu,cpuacct"; a symlink such as cpu -> cpu,cpuacct counts as
// its target's name does) and that is a mounted hierarchy (holds cgroup.procs). An error names the
// root when it cannot be listed or holds neither.
Result<CgroupLayout> detect_cgroup_layout(const sampler::ProcRoot& root);

}  // namespace flightrec::container
