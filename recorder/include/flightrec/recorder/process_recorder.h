#pragma once
// The process tier's recorder, beside the system Recorder: at sampler.process_rate, read every
// process (/proc), the network backend's per-process traffic and the socket tables, and hand the
// frame to the process ring (for /dump, incidents and replay) and to an observer (the /metrics
// rankings), which the daemon's composition attaches.
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "flightrec/common/limited_warning.h"
#include "flightrec/common/stop_signal.h"
#include "flightrec/config/config.h"
#include "flightrec/network/sock_diag_backend.h"
#include "flightrec/network/socket_table.h"
#include "flightrec/network/traffic_backend.h"
#include "flightrec/process/process_exits.h"
#include "flightrec/process/process_source.h"
#include "flightrec/recorder/heap_trim.h"
#include "flightrec/recorder/process_recorder_stats.h"
#include "flightrec/store/process_ring.h"

namespace flightrec::recorder {

class ProcessRecorder {
 public:
  // Opens the process backend processes.backend asks for and the network backend network.backend
  // asks for (logging which ones run, or why none does). Throws when /proc cannot be read or an
  // explicitly chosen process backend cannot run.
  ProcessRecorder(const config::Config& config, const sampler::ProcRoot& root,
                  store::ProcessRing& ring);

  // Called on the recorder's thread with every frame, before the ring stores it. Set before run().
  using FrameObserver = std::function<void(const process::ProcessFrame&)>;
  void set_frame_observer(FrameObserver observer) { observer_ = std::move(observer); }

  // Called on the recorder's thread with every exit the kernel reported as an OOM victim's (the
  // OOM victim namer's eBPF source). Set before run().
  using OomVictimObserver = std::function<void(const process::ExitedProcess&)>;
  void set_oom_victim_observer(OomVictimObserver observer) {
    oom_victim_observer_ = std::move(observer);
  }
  // Why exits are not reported ("" when the exit watcher runs): processes.short_lived is off, or
  // the BPF program could not be loaded.
  [[nodiscard]] const std::string& exits_missing() const noexcept { return exits_missing_; }

  // Samples until `stop` is requested.
  void run(const StopSignal& stop);

  [[nodiscard]] const ProcessRecorderStats& stats() const noexcept { return stats_; }
  [[nodiscard]] const std::string& backend_name() const noexcept { return backend_name_; }
  // How every process's counters are read: "ebpf" or "procfs" (processes.backend).
  [[nodiscard]] std::string_view process_backend() const noexcept { return sampler_->backend(); }

  // Safe from any thread (a configuration reload): from the next tick on, command lines are
  // redacted with `pattern` (processes.redact_cmdline), every process's read again. Throws
  // std::invalid_argument for a pattern that does not compile.
  void set_redaction(std::string pattern) {
    sampler_->offer_redactor(process::CmdlineRedactor(std::move(pattern)));
  }

 private:
  void tick(process::ProcessFrame& frame);
  void read_socket_table(process::ProcessFrame& frame);
  void keep_exited_traffic(process::ProcessFrame& frame);
  void trim_heap_after_shrink(process::ProcessFrame& frame);

  std::chrono::nanoseconds period_;
  std::unique_ptr<process::ProcessSource> sampler_;
  std::string backend_name_;  // before backend_: opening the backend sets it
  std::unique_ptr<network::TrafficBackend> backend_;
  network::SockDiagBackend* sock_diag_ = nullptr;       // backend_ when it is sock_diag's
  std::unique_ptr<network::SocketTable> sockets_;       // null when the backend gives its own table
  std::unique_ptr<process::ProcessExitWatcher> exits_;  // null without eBPF
  std::vector<process::ExitedProcess> exited_;
  std::string exits_missing_;
  OomVictimObserver oom_victim_observer_;
  // The socket table is dumped every `socket_ticks_` ticks (processes.sockets_rate): the dump walks
  // the kernel's whole TCP hash table and every process's fds, half the tier's cost at 250 ms.
  // Frames in between repeat the last table.
  uint64_t socket_ticks_ = 1;
  uint64_t ticks_ = 0;
  std::vector<process::SocketRow> last_sockets_;
  store::ProcessRing& ring_;
  FrameObserver observer_;
  ProcessRecorderStats stats_;
  network::TrafficReading reading_;
  std::string last_traffic_error_;
  // Failed process reads come by the hundred when they come (too many open files: every
  // process, every tick, each naming its own file): one line per interval, counting them all and
  // naming the last of each tick.
  log::LimitedWarning read_failures_{"process reads failed"};
  std::string last_socket_error_;
  std::string last_refusal_;
  // Final totals of processes the backend saw exit, while /proc still lists them.
  std::unordered_map<int32_t, std::pair<network::NetCounters, std::string>> exited_traffic_;
  HeapTrim heap_trim_;
};

}  // namespace flightrec::recorder
