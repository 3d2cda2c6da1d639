#pragma once
// Reads every process under <procfs>: lists the numeric directories, then reads each one's stat,
// status and cmdline relative to its directory fd. A process that exits in between is skipped and
// counted, never an error.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "flightrec/common/fd.h"
#include "flightrec/common/result.h"
#include "flightrec/process/cmdline.h"
#include "flightrec/process/pid_dir.h"
#include "flightrec/process/pid_stat.h"
#include "flightrec/process/pid_status.h"
#include "flightrec/sampler/proc_root.h"

namespace flightrec::process {

// The units procfs reports process times and sizes in.
struct KernelUnits {
  int64_t user_hz = 100;     // clock ticks per second (utime, stime, starttime)
  int64_t page_size = 4096;  // bytes per page (rss)

  // The running kernel's values, via sysconf.
  static KernelUnits from_sysconf();
};

struct ProcessInfo {
  PidStat stat;
  PidStatus status;
  Cmdline cmdline;
  int64_t start_time_unix_ns = 0;  // boot time + starttime
};

struct ProcessScan {
  std::vector<ProcessInfo> processes;  // in PID order
  uint32_t listed = 0;                 // numeric directories found
  uint32_t vanished = 0;               // exited between listing and reading
  std::vector<std::string> errors;     // processes left out for another reason, naming the file
};

enum class ReadOutcome : uint8_t { ok, vanished, failed };

class ProcessTable {
 public:
  // Opens <procfs> and reads the boot time from <procfs>/stat. Throws std::system_error (or
  // std::runtime_error for a stat without btime) naming the path: without them nothing works.
  explicit ProcessTable(sampler::ProcRoot root, KernelUnits units = KernelUnits::from_sysconf());

  // Lists and reads every process once.
  [[nodiscard]] ProcessScan scan() const;

  // Fills `out` with the PIDs of the numeric directories under <procfs>, ascending.
  // Returns 0 or the errno of the listing.
  [[nodiscard]] int list_pids(std::vector<int32_t>& out) const;

  // Opens one process's directory, relative to the procfs fd. Returns 0 or errno.
  [[nodiscard]] int open(int32_t pid, PidDir& out) const noexcept {
    return out.open(procfs_.get(), pid);
  }

  // Reads one process through its open directory: the process, nothing when it exited meanwhile,
  // or the error naming the file and why.
  [[nodiscard]] Result<std::optional<ProcessInfo>> read(const PidDir& dir) const;

  [[nodiscard]] const sampler::ProcRoot& root() const noexcept { return root_; }
  [[nodiscard]] const KernelUnits& units() const noexcept { return units_; }
  [[nodiscard]] int64_t boot_time_unix_s() const noexcept { return boot_time_unix_s_; }

 private:
  sampler::ProcRoot root_;
  KernelUnits units_;
  Fd procfs_;
  int64_t boot_time_unix_s_ = 0;
};

}  // namespace flightrec::process
