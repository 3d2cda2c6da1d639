#pragma once
// The cgroup files that hold one number: memory.current, memory.usage_in_bytes,
// memory.swap.current, memory.failcnt, cpuacct.usage, cpu.cfs_period_us, pids.current (counts),
// and memory.max, memory.high, memory.limit_in_bytes, pids.max (limits). Pure: bytes in, the
// value or an error saying what the bytes were out.
#include <cstdint>
#include <string_view>

#include "flightrec/common/result.h"

namespace flightrec::container {

// One whole non-negative number and at most a trailing newline.
Result<int64_t> parse_cgroup_count(std::string_view text);

// A count, or "max" (v2's "no limit"), read as kUnlimited; so is v1's "no limit", the page
// counter's maximum in bytes (9223372036854771712 with 4 KiB pages), and anything closer to
// INT64_MAX than a 1 MiB page would leave.
Result<int64_t> parse_cgroup_limit(std::string_view text);

}  // namespace flightrec::container
