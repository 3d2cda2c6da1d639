#pragma once
// The process tier over a bulk counter reader (the BPF task iterator): one read gives every
// process's counters, so a tick costs one read for all processes instead of two preads each and
// holds no fds. /proc is read only for what the reader does not give (command line, cgroup, the
// name procfs shows, the start time as a wall-clock time): when a process is first seen and when
// its comm changes (it exec'd). See docs/PROCESS_TIER.md ("Backends").
//
// Processes the reader cannot see (the task iterator of some kernels skips PID 1) are found once,
// on the first tick, by comparing a /proc listing taken before the read with the read, and are
// read through /proc/<pid>/stat and io every tick after.
//
// Exits and PID reuse: a known process missing from a read, or present with another start time
// (its PID was reused), is emitted one last time with exited=true and state 'x', then forgotten;
// the new owner of a reused PID is picked up on the next tick, as with the /proc reader.
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "flightrec/process/cmdline_redactor.h"
#include "flightrec/process/process_sampler.h"
#include "flightrec/process/process_source.h"
#include "flightrec/process/process_table.h"
#include "flightrec/process/task_counters.h"
#include "flightrec/sampler/proc_root.h"

namespace flightrec::process {

class TaskCounterSampler final : public ProcessSource {
 public:
  // `backend` names the reader ("ebpf"). Uses redact_cmdline, max_count and units of `options`.
  // Throws like ProcessTable when <procfs> cannot be read.
  TaskCounterSampler(const sampler::ProcRoot& root, const ProcessSamplerOptions& options,
                     std::unique_ptr<TaskCounterReader> reader, std::string backend);

  void sample(ProcessFrame& out) override;
  [[nodiscard]] const ProcessSamplerStats& stats() const noexcept override { return stats_; }
  [[nodiscard]] std::string_view backend() const noexcept override { return backend_; }

 private:
  struct Tracked {
    ProcessRow row;
    uint64_t start_boottime_ns = 0;  // identity: with the PID, names one process
    std::array<char, 16> comm{};     // the reader's comm when the identity was read
    CpuSplit reported;               // the CPU split last put in a row
  };

  void find_hidden(const std::vector<int32_t>& listed);
  void read_hidden();
  void merge(ProcessFrame& out);
  void admit(const TaskCounters& counters, ProcessFrame& out);
  void update(Tracked& process, const TaskCounters& counters);
  void emit_exited(Tracked& process, ProcessFrame& out);
  bool read_identity(Tracked& process, const TaskCounters& counters);
  void emit(const ProcessRow& row, ProcessFrame& out);

  ProcessTable table_;
  CmdlineRedactor redactor_;
  bool reread_identities_ = false;  // this tick: a new redactor came, read every identity again
  uint32_t max_count_;
  std::unique_ptr<TaskCounterReader> reader_;
  std::string backend_;
  std::vector<TaskCounters> counters_;  // the last read, ascending PID
  bool looked_for_hidden_ = false;
  std::vector<int32_t> hidden_;  // processes only /proc shows, ascending
  std::string scratch_;
  // Ascending PID; pointers, so that rebuilding the list each tick moves 8 bytes per process.
  std::vector<std::unique_ptr<Tracked>> tracked_;
  std::vector<std::unique_ptr<Tracked>> next_;
  size_t rows_ = 0;
  ProcessSamplerStats stats_;
};

}  // namespace flightrec::process
