#pragma once
// One process-tier sample: every process, its network traffic and the machine's sockets at one
// moment. The process sampler fills the /proc part, a network backend (eBPF or sock_diag) the
// traffic and socket tables; the process ring stores these frames, recordings carry them, and
// /metrics, `flightrec top`, the incident viewer and replay read them.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace flightrec::process {

// Cumulative traffic of one process (or of the unattributed bucket) since flightrec started
// watching it. Bytes are socket payload bytes (what send/recv moved), packets are IP packets.
struct NetCounters {
  uint64_t tx_bytes = 0;
  uint64_t rx_bytes = 0;
  uint64_t tx_packets = 0;
  uint64_t rx_packets = 0;
  bool operator==(const NetCounters&) const = default;
};

struct ProcessRow {
  int32_t pid = 0;
  int32_t ppid = 0;
  int32_t pgrp = 0;
  int32_t session = 0;
  int32_t tty_nr = 0;  // 0: no controlling terminal
  uint32_t uid = 0;    // real uid
  char state = '?';    // R, S, D, Z, T, t, X, I; 'x' for a process that exited (see `exited`)
  bool kernel_thread = false;
  // True for a process seen only after it exited (e.g. one that lived between two process ticks
  // and is known from the eBPF path) or on the tick it was found gone: its counters are totals at
  // exit and its /proc fields may be empty.
  bool exited = false;
  std::string comm;          // at most 15 bytes, as the kernel stores it
  std::string cmdline;       // arguments joined by spaces, redacted per processes.redact_cmdline
  std::string cgroup;        // cgroup v2 path ("/system.slice/ssh.service"), "" when unknown
  std::string container_id;  // 64-hex id from a docker/containerd/cri-o cgroup path, else ""
  int64_t start_time_unix_ns = 0;
  uint64_t cpu_user_ns = 0;    // utime, converted from USER_HZ ticks
  uint64_t cpu_system_ns = 0;  // stime, converted from USER_HZ ticks
  uint64_t rss_bytes = 0;
  uint64_t vsz_bytes = 0;
  uint32_t threads = 0;
  uint64_t minor_faults = 0;
  uint64_t major_faults = 0;
  // /proc/<pid>/io read_bytes/write_bytes (storage I/O); empty when not permitted or absent.
  std::optional<uint64_t> io_read_bytes;
  std::optional<uint64_t> io_write_bytes;
  // Network traffic; empty when no backend runs or it knows nothing of this process.
  std::optional<NetCounters> net;
  std::string net_device;  // interface most of its traffic used, "" when unknown
  bool operator==(const ProcessRow&) const = default;
};

enum class SocketProtocol : uint8_t { tcp = 0, udp = 1 };

// One socket from sock_diag. Listening TCP sockets and unconnected UDP sockets are the
// "Listening" table, the rest "Connections".
struct SocketRow {
  SocketProtocol protocol = SocketProtocol::tcp;
  uint8_t family = 0;  // AF_INET or AF_INET6
  uint8_t state = 0;   // the kernel's TCP state number (1 ESTABLISHED ... 10 LISTEN, 7 CLOSE)
  bool listening = false;
  std::string local;   // "127.0.0.1:9717", "[::1]:9717"
  std::string remote;  // "" for listening sockets
  uint64_t inode = 0;
  int32_t pid = 0;  // owning process, 0 when no process of ours holds it (or it is not visible)
  uint32_t uid = 0;
  // tcp_info's bytes_acked / bytes_received; empty for UDP or when the kernel gives no tcp_info.
  std::optional<uint64_t> tx_bytes;
  std::optional<uint64_t> rx_bytes;
  bool operator==(const SocketRow&) const = default;
};

struct ProcessFrame {
  int64_t time_unix_ns = 0;                 // CLOCK_REALTIME when the tick began
  std::vector<ProcessRow> processes;        // ascending pid; exited rows are included
  std::vector<SocketRow> sockets;           // connections and listening sockets
  std::optional<NetCounters> unattributed;  // traffic the backend could not tie to a process
  uint32_t processes_dropped = 0;           // beyond processes.max_count this tick

  // A sampler starting a tick: the time set, what the network side adds cleared. The process
  // rows stay, their buffers reused, until the sampler has written this tick's.
  void begin_tick(int64_t now_unix_ns) {
    time_unix_ns = now_unix_ns;
    sockets.clear();
    unattributed.reset();
    processes_dropped = 0;
  }
  bool operator==(const ProcessFrame&) const = default;
};

}  // namespace flightrec::process
