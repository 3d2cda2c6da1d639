#pragma once
// The filesystem roots every reader works under. Passed by value, never global, so tests point a
// whole sampler at a fixture tree (tests/fixtures/proc-*) instead of the live /proc.
#include <filesystem>
#include <string>

#include "flightrec/common/result.h"

namespace flightrec::sampler {

struct ProcRoot {
  std::filesystem::path procfs = "/proc";
  std::filesystem::path sysfs = "/sys";
  // cgroup v2 mount; on hybrid hosts the v2 hierarchy is found under <cgroupfs>/unified.
  std::filesystem::path cgroupfs = "/sys/fs/cgroup";

  [[nodiscard]] std::filesystem::path proc(const std::filesystem::path& rel) const {
    return procfs / rel;
  }
  [[nodiscard]] std::filesystem::path sys(const std::filesystem::path& rel) const {
    return sysfs / rel;
  }
};

// Whether `root.procfs` is the procfs of this process's own PID namespace (its "self" names this
// process), which is what the kernel's own view (the eBPF backends) shows; the error says why not
// for a fixture tree or another namespace's procfs.
Status check_own_procfs(const ProcRoot& root);

}  // namespace flightrec::sampler
