#include "flightrec/container/cgroups/cgroup_file.h"

#include <array>

namespace flightrec::container {
namespace {

struct FileNames {
  std::string_view v2;
  std::string_view v1;
  std::optional<Controller> controller;  // none for PSI
};

// In CgroupFile's order.
constexpr std::array<FileNames, kCgroupFileCount> kFiles{{
    {"cpu.stat", "cpu.stat", Controller::cpu},
    {"cpu.max", "", Controller::cpu},
    {"", "cpu.cfs_quota_us", Controller::cpu},
    {"", "cpu.cfs_period_us", Controller::cpu},
    {"", "cpuacct.usage", Controller::cpuacct},
    {"", "cpuacct.stat", Controller::cpuacct},
    {"memory.current", "memory.usage_in_bytes", Controller::memory},
    {"memory.max", "memory.limit_in_bytes", Controller::memory},
    {"memory.high", "", Controller::memory},
    {"memory.swap.current", "", Controller::memory},
    {"memory.events", "", Controller::memory},
    {"", "memory.failcnt", Controller::memory},
    {"", "memory.oom_control", Controller::memory},
    {"memory.stat", "memory.stat", Controller::memory},
    {"io.stat", "", Controller::io},
    // The _recursive files count the cgroup's children too, as v2's io.stat does.
    {"", "blkio.throttle.io_service_bytes_recursive", Controller::io},
    {"", "blkio.throttle.io_serviced_recursive", Controller::io},
    {"pids.current", "pids.current", Controller::pids},
    {"pids.max", "pids.max", Controller::pids},
    // PSI is v2's: a hybrid host has it in its unified hierarchy, under the same names.
    {"cpu.pressure", "cpu.pressure", std::nullopt},
    {"memory.pressure", "memory.pressure", std::nullopt},
    {"io.pressure", "io.pressure", std::nullopt},
}};

}  // namespace

std::string_view cgroup_file_name(CgroupFile file, CgroupMode mode) {
  const FileNames& names = kFiles[static_cast<size_t>(file)];
  return mode == CgroupMode::unified ? names.v2 : names.v1;
}

bool is_counter_file(CgroupFile file) {
  switch (file) {
    case CgroupFile::cpu_stat:
    case CgroupFile::cpuacct_usage:
    case CgroupFile::memory_usage:
    case CgroupFile::memory_events:
    case CgroupFile::memory_failcnt:
    case CgroupFile::memory_oom_control:
      return true;
    default:
      return false;
  }
}

std::optional<Controller> cgroup_file_controller(CgroupFile file) {
  return kFiles[static_cast<size_t>(file)].controller;
}

}  // namespace flightrec::container
