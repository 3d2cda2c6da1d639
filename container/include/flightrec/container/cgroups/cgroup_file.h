#pragma once
// The files a ContainerReader reads, and their names under each cgroup version: one list, so the
// reader, its tests and docs/CONTAINERS.md name the same set.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "flightrec/container/cgroups/cgroup_layout.h"

namespace flightrec::container {

enum class CgroupFile : uint8_t {
  cpu_stat,            // cpu.stat (both)
  cpu_max,             // cpu.max (v2)
  cfs_quota,           // cpu.cfs_quota_us (v1)
  cfs_period,          // cpu.cfs_period_us (v1)
  cpuacct_usage,       // cpuacct.usage (v1)
  cpuacct_stat,        // cpuacct.stat (v1)
  memory_usage,        // memory.current / memory.usage_in_bytes
  memory_limit,        // memory.max / memory.limit_in_bytes
  memory_high,         // memory.high (v2)
  memory_swap,         // memory.swap.current (v2)
  memory_events,       // memory.events (v2)
  memory_failcnt,      // memory.failcnt (v1)
  memory_oom_control,  // memory.oom_control (v1)
  memory_stat,         // memory.stat (both)
  io_stat,             // io.stat (v2)
  blkio_bytes,         // blkio.throttle.io_service_bytes_recursive (v1)
  blkio_ios,           // blkio.throttle.io_serviced_recursive (v1)
  pids_current,        // pids.current (both)
  pids_max,            // pids.max (both)
  cpu_pressure,        // cpu.pressure (v2; the unified hierarchy's on a hybrid host)
  memory_pressure,     // memory.pressure (likewise)
  io_pressure,         // io.pressure (likewise)
};
inline constexpr size_t kCgroupFileCount = 22;

// The file's name in a cgroup of `mode`, or "" when that version has no such file.
std::string_view cgroup_file_name(CgroupFile file, CgroupMode mode);

// Whether the slow round reads the file every round (ContainerReader::read_counters): the
// counters that move with the container's every run and the events of a limit breach. The rest
// change slowly or explain those counters, and are read less often.
bool is_counter_file(CgroupFile file);

// The controller whose hierarchy holds the file; nullopt for the PSI files, which are in the v2
// cgroup whatever the controllers (ContainerRef::pressure_dir).
std::optional<Controller> cgroup_file_controller(CgroupFile file);

}  // namespace flightrec::container
