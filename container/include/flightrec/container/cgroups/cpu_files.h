#pragma once
// The CPU files of a container's cgroup: cpu.stat (v1 and v2), cpu.max (v2), cpu.cfs_quota_us
// (v1; cpu.cfs_period_us is a plain count) and cpuacct.stat (v1).
#include <string_view>

#include "flightrec/common/result.h"
#include "flightrec/container/cgroups/cgroup_stats.h"

namespace flightrec::container {

// cpu.stat of either version. v2: usage_usec, user_usec, system_usec, nr_periods, nr_throttled,
// throttled_usec, nr_bursts, burst_usec. v1 (the cpu controller): nr_periods, nr_throttled,
// throttled_time and burst_time in ns, read as µs (rounded down), and nr_bursts. Missing lines
// stay kAbsent (no bandwidth fields without the cpu controller, no bursts before Linux 5.14).
Result<CpuStat> parse_cpu_stat(std::string_view text);

// cpu.max: "<quota> <period>", the quota "max" when there is none (kUnlimited).
Result<CpuBandwidth> parse_cpu_max(std::string_view text);

// cpu.cfs_quota_us: µs per period, or -1 for none (kUnlimited).
Result<int64_t> parse_cfs_quota(std::string_view text);

// cpuacct.stat: "user <ticks>" and "system <ticks>", in USER_HZ.
Result<CpuacctTicks> parse_cpuacct_stat(std::string_view text);

}  // namespace flightrec::container
