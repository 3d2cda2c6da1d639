#pragma once
// What is read of one container's cgroup, in one struct whatever the cgroup version: the v1 and v2
// files that say the same thing fill the same field, converted to one unit (CPU times in µs,
// sizes in bytes). A field whose file this kernel or layout lacks stays kAbsent; a limit that is
// not set is kUnlimited.
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>

#include "flightrec/sampler/series.h"

namespace flightrec::container {

using sampler::kAbsent;

// "max" in a v2 limit file, -1 in cpu.cfs_quota_us, and v1's "no limit" (the page counter's
// maximum in bytes, just below INT64_MAX).
inline constexpr int64_t kUnlimited = std::numeric_limits<int64_t>::max();

// A field as a number for display; nothing when its file was missing.
[[nodiscard]] inline std::optional<double> read_value(int64_t field) {
  if (field == kAbsent) return std::nullopt;
  return static_cast<double>(field);
}

// A limit as a number for display; nothing when its file was missing or no limit is set.
[[nodiscard]] inline std::optional<double> set_limit(int64_t field) {
  if (field == kUnlimited) return std::nullopt;
  return read_value(field);
}

// cpu.stat (v2 names, or v1's throttling fields converted from ns), and on v1 cpuacct's usage.
struct CpuStat {
  int64_t usage_us = kAbsent;   // v2 usage_usec; v1 cpuacct.usage (ns)
  int64_t user_us = kAbsent;    // v2 user_usec; v1 cpuacct.stat user (USER_HZ)
  int64_t system_us = kAbsent;  // v2 system_usec; v1 cpuacct.stat system (USER_HZ)
  int64_t periods = kAbsent;    // nr_periods: CFS periods in which the group had runnable tasks
  int64_t throttled_periods = kAbsent;  // nr_throttled
  int64_t throttled_us = kAbsent;       // v2 throttled_usec; v1 throttled_time (ns)
  int64_t bursts = kAbsent;             // nr_bursts (Linux 5.14+)
  int64_t burst_us = kAbsent;           // v2 burst_usec; v1 burst_time (ns)
  bool operator==(const CpuStat&) const = default;
};

// cpu.max, or v1's cpu.cfs_quota_us and cpu.cfs_period_us.
struct CpuBandwidth {
  int64_t quota_us = kAbsent;  // kUnlimited without a quota
  int64_t period_us = kAbsent;
  bool operator==(const CpuBandwidth&) const = default;
};

// cpuacct.stat: v1's user and system time, in USER_HZ ticks as the kernel prints them.
struct CpuacctTicks {
  int64_t user = kAbsent;
  int64_t system = kAbsent;
  bool operator==(const CpuacctTicks&) const = default;
};

// memory.events (v2). On v1, `max` comes from memory.failcnt and `oom_kill` from
// memory.oom_control; v1 has no counterpart of the others.
struct MemoryEvents {
  int64_t low = kAbsent;   // reclaimed below memory.low
  int64_t high = kAbsent;  // throttled over memory.high
  int64_t max = kAbsent;   // usage reached the limit (v1: failcnt)
  int64_t oom = kAbsent;   // reclaim at the limit failed
  int64_t oom_kill = kAbsent;
  bool operator==(const MemoryEvents&) const = default;
};

// memory.oom_control (v1).
struct OomControl {
  int64_t oom_kill_disable = kAbsent;
  int64_t under_oom = kAbsent;
  int64_t oom_kill = kAbsent;  // Linux 4.13+
  bool operator==(const OomControl&) const = default;
};

// The memory.stat fields that explain a limit breach: what the memory is, what came back after
// eviction, and the faults that read it back. v1 names (its hierarchical total_* lines, which
// count child cgroups as v2's do) and v2 names fill the same fields; bytes, except the counts.
struct MemoryStat {
  int64_t anon = kAbsent;    // v2 anon; v1 total_rss
  int64_t file = kAbsent;    // v2 file; v1 total_cache
  int64_t kernel = kAbsent;  // v2 kernel (5.18+); v1 none (memory.kmem.* is not read)
  int64_t slab = kAbsent;    // v2 slab; v1 none
  int64_t shmem = kAbsent;   // v2 shmem; v1 total_shmem
  int64_t swap = kAbsent;    // v1 total_swap only; v2 says it in memory.swap.current
  int64_t workingset_refault_anon = kAbsent;  // count of pages (5.9+)
  int64_t workingset_refault_file = kAbsent;  // count of pages (5.9+)
  int64_t major_faults = kAbsent;             // v2 pgmajfault; v1 total_pgmajfault
  bool operator==(const MemoryStat&) const = default;
};

struct MemoryStats {
  int64_t usage_bytes = kAbsent;  // memory.current; v1 memory.usage_in_bytes
  int64_t limit_bytes = kAbsent;  // memory.max; v1 memory.limit_in_bytes
  int64_t high_bytes = kAbsent;   // memory.high; v1 none
  int64_t swap_bytes = kAbsent;   // memory.swap.current; v1 memory.stat total_swap
  MemoryEvents events;
  MemoryStat stat;
  bool operator==(const MemoryStats&) const = default;
};

// One block device's I/O: io.stat, or v1's blkio.throttle.io_service_bytes_recursive (bytes)
// and io_serviced_recursive (operations).
struct IoDevice {
  uint32_t major = 0;
  uint32_t minor = 0;
  int64_t read_bytes = kAbsent;
  int64_t write_bytes = kAbsent;
  int64_t read_ios = kAbsent;
  int64_t write_ios = kAbsent;
  int64_t discard_bytes = kAbsent;
  int64_t discard_ios = kAbsent;
  bool operator==(const IoDevice&) const = default;
};

// A fixed number of devices, so a read allocates nothing; the devices past it are counted.
inline constexpr size_t kMaxIoDevices = 16;

struct IoStats {
  std::array<IoDevice, kMaxIoDevices> devices{};
  size_t count = 0;    // devices[0, count) are filled, in the file's order
  size_t dropped = 0;  // devices listed beyond kMaxIoDevices
  bool operator==(const IoStats&) const = default;
};

struct PidsStats {
  int64_t current = kAbsent;
  int64_t max = kAbsent;  // kUnlimited for "max"
  bool operator==(const PidsStats&) const = default;
};

// One PSI file's cumulative stall times; `full` is absent in cpu.pressure before Linux 5.13.
struct Pressure {
  int64_t some_us = kAbsent;
  int64_t full_us = kAbsent;
  bool operator==(const Pressure&) const = default;
};

struct CgroupStats {
  CpuStat cpu;
  CpuBandwidth bandwidth;
  MemoryStats memory;
  IoStats io;
  PidsStats pids;
  Pressure cpu_pressure;
  Pressure memory_pressure;
  Pressure io_pressure;
  bool operator==(const CgroupStats&) const = default;
};

}  // namespace flightrec::container
