#pragma once
// The machine's TCP and UDP sockets from netlink sock_diag (NETLINK_SOCK_DIAG, the interface `ss`
// uses): a pure parser of SOCK_DIAG_BY_FAMILY replies and a reader that dumps TCP (every state) and
// UDP, IPv4 and IPv6, over one netlink socket. Only this network namespace's sockets are visible.
// See docs/NETWORK.md ("sock_diag fallback").
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "flightrec/common/fd.h"
#include "flightrec/common/result.h"
#include "flightrec/process/process_frame.h"

namespace flightrec::network {

using process::SocketProtocol;
using process::SocketRow;

// The kernel's TCP state numbers (include/net/tcp_states.h) that the tables test for. UDP sockets
// report kTcpClose when unconnected and kTcpEstablished once connect()ed.
inline constexpr uint8_t kTcpEstablished = 1;
inline constexpr uint8_t kTcpClose = 7;
inline constexpr uint8_t kTcpListen = 10;

// One socket of a reply: the table row (pid still 0: owners are found elsewhere) plus what only
// the traffic backend needs.
struct DiagSocket {
  SocketRow row;
  // The kernel's socket cookie: unique per socket for the life of the system, unlike the inode
  // (0 once the process has closed the socket) or the address pair (reused).
  uint64_t cookie = 0;
  // tcp_info's segs_out / segs_in; empty for UDP or when the kernel's tcp_info is too old to have
  // them (before Linux 4.2).
  std::optional<uint64_t> tx_packets;
  std::optional<uint64_t> rx_packets;
  bool operator==(const DiagSocket&) const = default;
};

// Not a Result: a datagram that goes wrong midway still gave the rows before the bad offset, and
// a netlink error carries its errno, which the reader acts on.
struct InetDiagParse {
  bool done = false;      // NLMSG_DONE was seen: the dump is complete
  std::string error;      // "" on success; otherwise names the byte offset that was wrong
  int netlink_errno = 0;  // the errno of an NLMSG_ERROR reply (then `error` is set too)
};

// Parses one datagram of a SOCK_DIAG_BY_FAMILY (or TCPDIAG_GETSOCK) dump reply for `protocol` (the
// reply does not say) and appends one DiagSocket per socket to `out`. A listening row is a TCP
// LISTEN socket or an unconnected UDP socket; its `remote` is "". tcp_info is read by its length,
// so a shorter struct from an older kernel yields empty counters instead of garbage. On error, the
// rows parsed before the bad offset stay in `out`. Bytes in host order, as the kernel sends them.
InetDiagParse parse_inet_diag(std::span<const uint8_t> netlink_bytes, SocketProtocol protocol,
                              std::vector<DiagSocket>& out);

// Formats an address as the tables show it: "127.0.0.1:9717" or "[::1]:9717". `address` is in
// network byte order (4 bytes for AF_INET, 16 for AF_INET6); `port` in host order.
std::string format_socket_address(uint8_t family, std::span<const uint8_t> address, uint16_t port);

// Dumps every TCP and UDP socket (IPv4 and IPv6) over one netlink socket, reusing its receive
// buffer. Not thread-safe: one caller at the process-tier rate.
class SockDiagReader {
 public:
  static constexpr size_t kDefaultMaxSockets = 65536;

  // Throws std::system_error when the netlink socket cannot be opened (set-up error).
  explicit SockDiagReader(size_t max_sockets = kDefaultMaxSockets);

  // Replaces `out` with the sockets as they stand now. Keeps at most max_sockets (the rest are
  // counted in dropped()). The error says which dump failed and why; `out` then holds what was
  // read before the failure and the netlink socket is reopened for the next call.
  Status read(std::vector<DiagSocket>& out);

  // Sockets left out of the last read because max_sockets was reached.
  [[nodiscard]] size_t dropped() const noexcept { return dropped_; }
  // False when the kernel has no UDP sock_diag (udp_diag module absent): UDP rows are then missing.
  [[nodiscard]] bool udp_available() const noexcept { return udp_available_; }

 private:
  // The dumps of one read: TCP of both families at once (family AF_UNSPEC, TCPDIAG_GETSOCK) while
  // the kernel takes that request, else TCP per family; then UDP per family.
  [[nodiscard]] std::vector<std::pair<uint8_t, SocketProtocol>> requests() const;
  Status send_request(uint8_t family, SocketProtocol protocol);
  Status dump(uint8_t family, SocketProtocol protocol, std::vector<DiagSocket>& out);

  Fd socket_;
  std::vector<uint8_t> buffer_;
  size_t max_sockets_;
  size_t dropped_ = 0;
  uint32_t sequence_ = 0;
  bool udp_available_ = true;
  bool tcp_combined_ = true;
  int last_errno_ = 0;  // the kernel's answer to the last failed dump, 0 for other failures
};

}  // namespace flightrec::network
