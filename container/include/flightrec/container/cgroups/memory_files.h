#pragma once
// The memory files of a container's cgroup that hold several fields: memory.events (v2),
// memory.oom_control (v1) and memory.stat (v1 and v2 names, into one MemoryStat). The single
// numbers (usage, limits, swap, failcnt) are value_files.h's.
#include <string_view>

#include "flightrec/common/result.h"
#include "flightrec/container/cgroups/cgroup_stats.h"

namespace flightrec::container {

// memory.events: low, high, max, oom, oom_kill (oom_group_kill and newer lines are skipped).
Result<MemoryEvents> parse_memory_events(std::string_view text);

// memory.oom_control: oom_kill_disable, under_oom and oom_kill (Linux 4.13+).
Result<OomControl> parse_oom_control(std::string_view text);

// v2 memory.stat: anon, file, kernel, slab, shmem, workingset_refault_anon,
// workingset_refault_file, pgmajfault. Hierarchical: child cgroups included.
Result<MemoryStat> parse_memory_stat_v2(std::string_view text);

// v1 memory.stat: its hierarchical total_* lines, which count child cgroups as v2's fields do
// (total_rss, total_cache, total_shmem, total_swap, total_workingset_refault_anon,
// total_workingset_refault_file, total_pgmajfault); the group-local lines are skipped.
Result<MemoryStat> parse_memory_stat_v1(std::string_view text);

}  // namespace flightrec::container
