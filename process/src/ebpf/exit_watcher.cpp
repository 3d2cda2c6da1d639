// The process exit watcher: turns the events of process/bpf/exits.bpf.c into ExitedProcess rows.
#include "flightrec/process/process_exits.h"

#if FLIGHTREC_HAVE_EBPF
#include <time.h>
#include <unistd.h>

#include <cstring>

#include "exit_program.h"
#include "flightrec/common/clock.h"
#include "flightrec/common/log.h"
#endif

namespace flightrec::process {

#if FLIGHTREC_HAVE_EBPF
namespace {

// `using` cannot carry __extension__, which keeps -Wpedantic quiet about __int128.
__extension__ typedef unsigned __int128 Wide;  // NOLINT(modernize-use-using)

// Added to a CLOCK_BOOTTIME time gives Unix time. Taken at each drain, so a step of the wall
// clock moves later conversions as it moves /proc's boot time.
int64_t boot_to_unix_ns() { return clock_ns(CLOCK_REALTIME) - clock_ns(CLOCK_BOOTTIME); }

struct CpuSplit {
  uint64_t user_ns = 0;
  uint64_t system_ns = 0;
};

// The scheduler's runtime is exact but knows no user/system split; utime and stime are sampled at
// timer ticks. Like the kernel's cputime_adjust() (getrusage, /proc/<pid>/stat), the exact total
// is divided in the sampled proportion.
CpuSplit split_runtime(const flightrec_exit_event& event) {
  CpuSplit split;
  if (event.stime_ns == 0) {
    split.user_ns = event.runtime_ns;
  } else if (event.utime_ns == 0) {
    split.system_ns = event.runtime_ns;
  } else {
    split.system_ns = static_cast<uint64_t>(Wide{event.runtime_ns} * event.stime_ns /
                                            (Wide{event.stime_ns} + event.utime_ns));
    split.user_ns = event.runtime_ns - split.system_ns;
  }
  return split;
}

ExitedProcess to_exited_process(const detail::ExitRecord& record, int64_t boot_to_unix,
                                uint64_t page_bytes) {
  const flightrec_exit_event& event = record.event;
  ExitedProcess process;
  process.pid = static_cast<int32_t>(event.tgid);
  process.ppid = static_cast<int32_t>(event.ppid);
  process.uid = event.uid;
  process.comm.assign(event.comm, strnlen(event.comm, sizeof(event.comm)));
  process.start_time_unix_ns = static_cast<int64_t>(event.start_boottime_ns) + boot_to_unix;
  process.exit_time_unix_ns = static_cast<int64_t>(event.exit_boottime_ns) + boot_to_unix;
  const CpuSplit cpu = split_runtime(event);
  process.cpu_user_ns = cpu.user_ns;
  process.cpu_system_ns = cpu.system_ns;
  process.rss_bytes = event.peak_rss_pages * page_bytes;
  process.oom_victim = (event.flags & FLIGHTREC_EXIT_OOM_VICTIM) != 0;
  process.memory_cgroup = record.memory_cgroup;
  process.memory_limit_bytes = record.limit_pages * page_bytes;
  if (record.limit_pages != 0) {
    process.memory_limit_cgroup = cgroup_ancestor_path(record.memory_cgroup, record.limit_level);
  }
  return process;
}

class EbpfProcessExitWatcher final : public ProcessExitWatcher {
 public:
  explicit EbpfProcessExitWatcher(std::unique_ptr<detail::ExitProgram> program)
      : program_(std::move(program)), page_bytes_(static_cast<uint64_t>(sysconf(_SC_PAGESIZE))) {}

  void drain(std::vector<ExitedProcess>& out) override {
    events_.clear();
    // Events read before a failure are still returned; the rest stay for the next drain.
    if (const Status consumed = program_->consume(events_); !consumed) {
      log::warn("process exit watcher", {{"error", consumed.error()}});
    }
    const int64_t boot_to_unix = boot_to_unix_ns();
    for (const detail::ExitRecord& record : events_)
      out.push_back(to_exited_process(record, boot_to_unix, page_bytes_));
  }

  [[nodiscard]] uint64_t dropped() const override { return program_->dropped(); }

 private:
  std::unique_ptr<detail::ExitProgram> program_;
  uint64_t page_bytes_;
  std::vector<detail::ExitRecord> events_;  // reused between drains
};

}  // namespace

Result<std::unique_ptr<ProcessExitWatcher>> make_process_exit_watcher() {
  auto program = detail::ExitProgram::open();
  if (!program) return Error{program.error()};
  return std::unique_ptr<ProcessExitWatcher>(
      std::make_unique<EbpfProcessExitWatcher>(*std::move(program)));
}

#else

Result<std::unique_ptr<ProcessExitWatcher>> make_process_exit_watcher() {
  return Error{FLIGHTREC_EBPF_UNAVAILABLE};
}

#endif

}  // namespace flightrec::process
