#pragma once
// The process tier's bulk backend: every process's counters from one reader (the BPF task
// iterator, process/bpf/tasks.bpf.c) instead of two /proc reads per process. A reader gives the
// kernel's raw values; the functions here apply the conversions procfs applies, so a row holds
// the same values, in the same units, whichever backend read it (docs/PROCESS_TIER.md,
// "Backends").
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "flightrec/common/result.h"
#include "flightrec/process/pid_io.h"
#include "flightrec/process/pid_stat.h"
#include "flightrec/process/process_frame.h"
#include "flightrec/process/process_table.h"

namespace flightrec::process {

// One process (thread group) as the kernel holds it; what /proc/<pid>/stat and io are made of.
struct TaskCounters {
  int32_t pid = 0;  // the thread-group id
  int32_t ppid = 0;
  int32_t pgrp = 0;
  int32_t session = 0;
  uint32_t uid = 0;         // real uid
  uint32_t flags = 0;       // the leader's PF_* bits
  uint32_t state = 0;       // the leader's __state bits
  uint32_t exit_state = 0;  // EXIT_ZOMBIE, EXIT_DEAD or 0
  uint32_t threads = 0;
  bool has_tty = false;
  uint32_t tty_major = 0;  // the controlling terminal's driver major, minor_start and index
  uint32_t tty_minor_start = 0;
  int32_t tty_index = 0;
  uint64_t start_boottime_ns = 0;
  uint64_t utime_ns = 0;  // tick-sampled user and system time of the group
  uint64_t stime_ns = 0;
  uint64_t runtime_ns = 0;     // the scheduler's precise total the split is scaled to
  uint64_t prev_utime_ns = 0;  // the split the kernel last reported (signal->prev_cputime)
  uint64_t prev_stime_ns = 0;
  uint64_t minor_faults = 0;
  uint64_t major_faults = 0;
  uint64_t vm_pages = 0;
  uint64_t rss_pages = 0;
  uint64_t io_read_bytes = 0;
  uint64_t io_write_bytes = 0;
  std::array<char, 16> comm{};  // task->comm, NUL-terminated

  [[nodiscard]] std::string_view comm_view() const noexcept;
  [[nodiscard]] bool is_kernel_thread() const noexcept { return (flags & 0x00200000U) != 0; }
};

class TaskCounterReader {
 public:
  virtual ~TaskCounterReader() = default;
  // Replaces `out` (a buffer kept across reads) with every process there is now; the error says
  // why when the read failed.
  virtual Status read(std::vector<TaskCounters>& out) = 0;
};

// The user/system split /proc reports (the kernel's cputime_adjust): the tick-sampled split
// scaled to the precise runtime, never below what was reported before. `reported` is the split
// this reader last gave for the process ({0, 0} at first sight); it is updated.
struct CpuSplit {
  uint64_t user_ns = 0;
  uint64_t system_ns = 0;
};
CpuSplit adjust_cpu_split(const TaskCounters& counters, CpuSplit& reported);

// The state letter of /proc/<pid>/stat for the kernel's state and exit_state bits.
char task_state_letter(uint32_t state, uint32_t exit_state);

// /proc/<pid>/stat's tty_nr: the terminal's device number in the kernel's user-visible encoding.
int32_t encode_tty_nr(const TaskCounters& counters);

// starttime as /proc/<pid>/stat gives it: clock ticks since boot.
uint64_t start_ticks(uint64_t start_boottime_ns, int64_t user_hz);

// Nanoseconds truncated to whole clock ticks and back, as /proc's utime and stime are.
uint64_t whole_ticks_ns(uint64_t ns, int64_t user_hz);

// Fills the fields of `row` that change while a process runs (everything /proc/<pid>/stat and io
// give except comm, which the caller keeps from /proc: kernel threads' names are longer there).
// `reported` as for adjust_cpu_split.
void apply_task_counters(const TaskCounters& counters, CpuSplit& reported, const KernelUnits& units,
                         ProcessRow& row);

// The counters of a process the reader cannot see, from its /proc/<pid>/stat and io, such that
// apply_task_counters gives what /proc says (the task iterator of some kernels skips PID 1).
TaskCounters counters_from_procfs(const PidStat& stat, const PidIo& io, const KernelUnits& units);

}  // namespace flightrec::process
