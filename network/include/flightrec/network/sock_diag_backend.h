#pragma once
// The fallback traffic backend: per-socket TCP counters from sock_diag's tcp_info (bytes_acked
// sent, bytes_received received, segs_out/segs_in as packets) summed per owning process. It needs
// no BPF, only a netlink socket, and pays for that with documented blind spots: no UDP bytes,
// sockets that open and close between two reads are missed (as are a closing socket's last bytes
// since the previous read), only this network namespace is seen, and bytes_acked counts the SYN
// of an active open and each FIN as one byte. See docs/NETWORK.md ("sock_diag fallback").
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "flightrec/network/socket_table.h"
#include "flightrec/network/traffic_backend.h"

namespace flightrec::network {

class SockDiagBackend final : public TrafficBackend {
 public:
  // Throws std::system_error when the netlink socket cannot be opened.
  explicit SockDiagBackend(sampler::ProcRoot root,
                           size_t max_sockets = SockDiagReader::kDefaultMaxSockets);

  [[nodiscard]] std::string_view name() const noexcept override { return "sock_diag"; }

  // Counters are cumulative since the first read: sockets open at the first read count only what
  // they move afterwards. A socket's bytes stay with the process that held it after the socket
  // closes; bytes of sockets no visible process holds are in `unattributed`. A process is
  // reported with `exited` once, on the first read that finds it gone, and then forgotten.
  Status read(TrafficReading& out) override;

  // The socket table of the last read (empty after a failed one), owners filled in: a process
  // tier using this backend takes its Connections and Listening tables from here instead of
  // dumping again.
  void sockets(std::vector<SocketRow>& out) const;

 private:
  struct TrackedSocket {
    int32_t pid = 0;
    uint64_t inode = 0;
    NetCounters seen;     // the kernel's counters at the last read
    NetCounters charged;  // the part of `seen` already added to a total
    uint64_t last_read = 0;
  };
  struct ProcessTotals {
    std::string comm;
    NetCounters counters;
    uint64_t last_socket_read = 0;  // the last read on which it held an open socket
  };

  void track(const DiagSocket& socket);
  void charge(TrackedSocket& socket, bool final_read);
  void report(TrafficReading& out);

  sampler::ProcRoot root_;
  SocketTable table_;
  std::vector<DiagSocket> dump_;
  std::unordered_map<uint64_t, TrackedSocket> tracked_;  // by socket cookie
  std::map<int32_t, ProcessTotals> processes_;
  NetCounters unattributed_;
  uint64_t reads_ = 0;
};

// The sock_diag backend, or the error saying why it cannot run here.
Result<std::unique_ptr<TrafficBackend>> make_sock_diag_backend(const sampler::ProcRoot& root);

}  // namespace flightrec::network
