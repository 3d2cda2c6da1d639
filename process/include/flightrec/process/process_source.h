#pragma once
// What the process tier reads every process through: the /proc reader (ProcessSampler) or a bulk
// counter reader (TaskCounterSampler over the BPF task iterator). open_process_source
// (process_backend.h) picks one at start-up (processes.backend); the recorder sees only this.
#include <cstdint>
#include <string>
#include <string_view>

#include "flightrec/process/cmdline_redactor.h"
#include "flightrec/process/process_frame.h"

namespace flightrec::process {

struct ProcessSamplerStats {
  uint32_t processes = 0;          // rows in the last frame, exited ones included
  uint32_t held = 0;               // processes whose fds stay open between ticks
  uint32_t fd_fallbacks = 0;       // processes read open-read-close last tick: no fds left to hold
  uint64_t vanished_total = 0;     // processes found gone (exited rows + gone before first read)
  uint64_t read_errors_total = 0;  // reads that failed for another reason than the process exiting
  std::string last_error;          // the latest of those, naming the file
  uint64_t listings_skipped_total = 0;  // ticks that reused the known PIDs: none was allocated
  bool dropped_last_tick = false;       // max_count left processes out of the last frame
  int64_t last_sample_duration_ns = 0;
};

class ProcessSource {
 public:
  virtual ~ProcessSource() = default;

  // Fills the process part of `out`: time_unix_ns (CLOCK_REALTIME at the start), processes in
  // ascending PID order and processes_dropped; clears sockets and unattributed for the network
  // backend to fill. Reusing one frame across calls avoids most allocations.
  virtual void sample(ProcessFrame& out) = 0;

  [[nodiscard]] virtual const ProcessSamplerStats& stats() const noexcept = 0;

  // "procfs" or "ebpf": named in the log, /metrics and docs/PROCESS_TIER.md.
  [[nodiscard]] virtual std::string_view backend() const noexcept = 0;

  // Safe from any thread: from the next sample() on, command lines are redacted with `next`, and
  // every process's is read again, so a secret the old pattern let through stops being recorded.
  void offer_redactor(CmdlineRedactor next) { redactor_update_.offer(std::move(next)); }

 protected:
  // For sample(): the redactor offered since the last call, if any.
  [[nodiscard]] std::optional<CmdlineRedactor> take_redactor() { return redactor_update_.take(); }

 private:
  RedactorUpdate redactor_update_;
};

}  // namespace flightrec::process
