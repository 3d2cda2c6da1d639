#pragma once
// The /proc part of the process tier: one ProcessFrame row per process, every tick.
//
// Cost is what matters here (thousands of processes, every 250 ms), so a process's /proc/<pid>
// directory fd and the fds of the files read every tick (stat, io) stay open across ticks and are
// re-read with one pread at offset 0 (procfs regenerates the content on each read). The files that
// rarely change (status for the uid, cmdline, cgroup) are read when a process is first seen and
// again when its comm changes (it called exec). New processes are found by listing <procfs>.
//
// Exits and PID reuse: a held fd keeps pointing at the process it was opened for; once that
// process is gone, reads through it fail with ESRCH/ENOENT even if the PID was reused. Such a
// process is emitted one last time with exited=true and state 'x', then forgotten; a process that
// reuses its PID is picked up on the next tick as a new process, so a frame never has two rows for
// one PID. A starttime that changes under a held fd is treated the same way.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "flightrec/common/fd.h"
#include "flightrec/process/cmdline_redactor.h"
#include "flightrec/process/pid_allocation_watch.h"
#include "flightrec/process/pid_dir.h"
#include "flightrec/process/pid_lister.h"
#include "flightrec/process/pid_stat.h"
#include "flightrec/process/process_frame.h"
#include "flightrec/process/process_source.h"
#include "flightrec/process/process_table.h"
#include "flightrec/sampler/proc_root.h"

namespace flightrec::process {

struct ProcessSamplerOptions {
  std::string redact_cmdline;  // processes.redact_cmdline; "" redacts nothing
  uint32_t max_count = 8192;   // processes.max_count: rows per frame, lowest PIDs first
  KernelUnits units = KernelUnits::from_sysconf();
  // File descriptors the sampler may keep open (3 per process). Empty: RLIMIT_NOFILE's soft limit
  // (raised to the hard limit) minus a reserve for the rest of the program.
  std::optional<size_t> max_held_fds;
  // List <procfs> every tick even when no PID was allocated since the last one (benchmarks of the
  // listing's cost use it; see PidAllocationWatch).
  bool always_list = false;
};

class ProcessSampler final : public ProcessSource {
 public:
  // Opens <procfs>, reads the boot time, compiles the redaction regex and raises RLIMIT_NOFILE's
  // soft limit to the hard limit. Throws (naming the path or config key) when any of that fails.
  ProcessSampler(const sampler::ProcRoot& root, ProcessSamplerOptions options);

  // Fills the /proc part of `out`: time_unix_ns (CLOCK_REALTIME at the start), processes in
  // ascending PID order and processes_dropped; clears sockets and unattributed for the network
  // backend to fill. Reusing one frame across calls avoids most allocations.
  void sample(ProcessFrame& out) override;

  [[nodiscard]] const ProcessSamplerStats& stats() const noexcept override { return stats_; }
  [[nodiscard]] std::string_view backend() const noexcept override { return "procfs"; }

 private:
  enum class IoAccess : uint8_t { unknown, held, denied, absent };

  struct Tracked {
    PidDir dir;  // open between ticks when held; otherwise opened for one read and closed
    Fd stat;
    Fd io;
    IoAccess io_access = IoAccess::unknown;
    uint64_t starttime = 0;  // identity: with the PID, names one process
    ProcessRow row;
    [[nodiscard]] int32_t pid() const noexcept { return row.pid; }
    [[nodiscard]] bool held() const noexcept { return stat.valid(); }
  };

  enum class Refresh : uint8_t { alive, gone, failed };

  void admit(int32_t pid, ProcessFrame& out);
  void refresh(std::unique_ptr<Tracked>& owned, bool listed, ProcessFrame& out);
  Refresh read_stat(Tracked& process, bool fresh, PidStat& stat);
  // status, cmdline and cgroup: the fields read at first sight and after exec.
  ReadOutcome read_identity(Tracked& process);
  void read_io(Tracked& process);
  void try_hold(Tracked& process);
  void release(Tracked& process);
  void apply_stat(const PidStat& stat, ProcessRow& row) const;
  void emit(const ProcessRow& row, ProcessFrame& out);
  void fail(int32_t pid, std::string_view file, std::string_view why);

  ProcessTable table_;
  PidLister lister_;
  PidAllocationWatch pid_watch_;
  bool always_list_;
  CmdlineRedactor redactor_;
  bool reread_identities_ = false;  // this tick: a new redactor came, read every identity again
  uint32_t max_count_;
  size_t fd_budget_;
  size_t fds_held_ = 0;

  // Ascending PID. Pointers, so that rebuilding the list each tick moves 8 bytes per process,
  // not a whole row.
  std::vector<std::unique_ptr<Tracked>> tracked_;
  std::vector<std::unique_ptr<Tracked>> next_;  // built each tick, then swapped with tracked_
  std::vector<int32_t> listed_;
  std::vector<char> buffer_;  // one pread's bytes
  std::string scratch_;       // open-read-close reads
  size_t rows_ = 0;           // rows written to the frame this tick
  ProcessSamplerStats stats_;
};

}  // namespace flightrec::process
