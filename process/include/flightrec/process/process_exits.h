#pragma once
// Processes that ended, reported by the kernel as their last thread exits (a BPF program on the
// sched_process_exit tracepoint), so processes that start and exit between two process ticks still
// appear with their totals. Needs root (CAP_BPF + CAP_PERFMON) and kernel BTF. See
// docs/PROCESS_TIER.md ("Short-lived processes").
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "flightrec/common/result.h"
#include "flightrec/process/process_frame.h"

namespace flightrec::process {

// A process (thread group) as the kernel knew it when its last thread exited.
struct ExitedProcess {
  int32_t pid = 0;
  int32_t ppid = 0;  // the real parent at exit (a reaper once the parent had gone)
  uint32_t uid = 0;  // real uid
  std::string comm;  // the thread-group leader's
  int64_t start_time_unix_ns = 0;
  int64_t exit_time_unix_ns = 0;
  // The group's CPU time, split into user and system as getrusage and /proc/<pid>/stat do.
  uint64_t cpu_user_ns = 0;
  uint64_t cpu_system_ns = 0;
  uint64_t rss_bytes = 0;  // peak resident set (the kernel's maxrss); 0 when not known
  // The OOM killer chose it (the kernel marked its signal struct). Such an exit also carries the
  // path of its memory cgroup, as the kernel log's "task_memcg=" would ("" for other exits): the
  // OOM victim namer (trigger/oom_victims.h) names the victim from it without the kernel log.
  bool oom_victim = false;
  std::string memory_cgroup;
  // A victim's nearest memory limit: its memory cgroup's memory.max (v1 memory.limit_in_bytes)
  // or, when that is "max", the closest limited ancestor's, and that cgroup's path ("" when the
  // reported path is too short to hold it). The kernel log gives the limit that was hit only with
  // CAP_SYSLOG; this is the one that usually was. 0 and "" when no cgroup up to the root has one.
  uint64_t memory_limit_bytes = 0;
  std::string memory_limit_cgroup;
};

// The path of the ancestor `level` components below the hierarchy's root of the cgroup at `path`
// ("/a/b/c", level 2: "/a/b"; level 0: "/"), or "" when `path` has fewer components (the exit
// program cuts a very long path).
std::string cgroup_ancestor_path(std::string_view path, uint32_t level);

class ProcessExitWatcher {
 public:
  virtual ~ProcessExitWatcher() = default;
  // Appends the processes that exited since the last call, in exit order. Never blocks.
  virtual void drain(std::vector<ExitedProcess>& out) = 0;
  // Exits lost because drain() was not called often enough and the kernel's buffer was full.
  [[nodiscard]] virtual uint64_t dropped() const = 0;
};

// Loads and attaches the BPF program. The error says why when it cannot run here (built without
// eBPF, not permitted, no kernel BTF); the process tier then sees only processes alive at a tick.
// The program stays attached for the watcher's lifetime.
Result<std::unique_ptr<ProcessExitWatcher>> make_process_exit_watcher();

// Merges exits into a frame (rows stay in ascending pid order): a process with no row lived
// between two ticks and gets one, marked exited, with the kernel's totals; a row the sampler
// already marked exited takes the kernel's final CPU and peak RSS (the sampler's are from its last
// read); a live row with the same pid is a newer process that reused it and is left alone.
// Returns the number of rows added.
size_t attach_exits(ProcessFrame& frame, std::span<const ExitedProcess> exits);

}  // namespace flightrec::process
