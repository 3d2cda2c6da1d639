#pragma once
// Per-process network traffic, from whichever backend can run here: eBPF programs counting at the
// socket layer in process context (exact, TCP and UDP, includes processes that already exited), or
// netlink sock_diag's per-socket TCP counters mapped to processes through socket inodes (no UDP,
// misses sockets that open and close between two reads). See docs/NETWORK.md.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "flightrec/common/result.h"
#include "flightrec/process/process_frame.h"
#include "flightrec/sampler/proc_root.h"

namespace flightrec::network {

using process::NetCounters;

// Cumulative traffic of one process since the backend started.
struct ProcessTraffic {
  int32_t pid = 0;   // thread-group id
  std::string comm;  // as the backend saw it (needed for processes that already exited)
  NetCounters counters;
  std::string device;   // interface most of its traffic used, "" when unknown
  bool exited = false;  // the backend saw the process exit
};

struct TrafficReading {
  std::vector<ProcessTraffic> processes;  // any order
  // Traffic seen but not tied to a process; empty when the backend cannot tell.
  std::optional<NetCounters> unattributed;
};

class TrafficBackend {
 public:
  virtual ~TrafficBackend() = default;
  // "ebpf" or "sock_diag": logged at start-up and exported as a self-metric.
  [[nodiscard]] virtual std::string_view name() const noexcept = 0;
  // Reads the counters as they stand now into `out`; the error says why the read failed (the
  // previous reading stays valid). Called from one thread at the process-tier rate.
  virtual Status read(TrafficReading& out) = 0;
};

// The backend `choice` asks for ("auto", "ebpf", "sock_diag"; "off" gives null with no error).
// "auto" tries eBPF and falls back to sock_diag, saying why in `note`. A forced backend that
// cannot start gives null with `note` saying why. Not a Result: `note` is logged beside a working
// backend too (why auto did not get eBPF).
std::unique_ptr<TrafficBackend> make_traffic_backend(std::string_view choice,
                                                     const sampler::ProcRoot& root,
                                                     std::string& note);

// Copies each process's counters and device into its row of `frame` (matched by pid) and adds a
// row marked `exited` for each process the reading has but the frame lacks; sets
// frame.unattributed.
void attach_traffic(process::ProcessFrame& frame, const TrafficReading& reading);

}  // namespace flightrec::network
