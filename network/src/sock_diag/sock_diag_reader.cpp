// One netlink socket, three dump requests per read (TCP, then UDP over IPv4 and over IPv6), each
// answered by datagrams that parse_inet_diag turns into rows.
//
// TCP goes through the older TCPDIAG_GETSOCK request, which answers for IPv4 and IPv6 at once: a
// TCP dump walks the kernel's whole established hash table (262,144 buckets on a 24 GiB machine,
// ~3 ms per walk, whatever few sockets it holds), and the two families share that table, so one
// request walks it once instead of twice. A kernel that refuses it gets the two per-family
// requests instead.
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>

#include <cerrno>
#include <cstring>
#include <system_error>

#include "flightrec/network/sock_diag.h"

namespace flightrec::network {
namespace {

// The kernel sizes its dump datagrams to the reader's buffer (up to 32 KiB), so one this size
// is never truncated.
constexpr size_t kReceiveBufferBytes = 32 * 1024;
// A dump the kernel does not finish within this time is abandoned rather than stalling the tier.
constexpr timeval kReceiveTimeout{1, 0};

Fd open_netlink() {
  Fd fd(::socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG));
  if (!fd) throw std::system_error(errno, std::generic_category(), "socket(NETLINK_SOCK_DIAG)");
  if (::setsockopt(fd.get(), SOL_SOCKET, SO_RCVTIMEO, &kReceiveTimeout, sizeof(kReceiveTimeout)) !=
      0) {
    throw std::system_error(errno, std::generic_category(), "setsockopt(SO_RCVTIMEO) on sock_diag");
  }
  return fd;
}

const char* describe(uint8_t family, SocketProtocol protocol) {
  const bool v6 = family == AF_INET6;
  if (family == AF_UNSPEC) return "tcp and tcp6";
  if (protocol == SocketProtocol::tcp) return v6 ? "tcp6" : "tcp";
  return v6 ? "udp6" : "udp";
}

}  // namespace

SockDiagReader::SockDiagReader(size_t max_sockets)
    : socket_(open_netlink()), buffer_(kReceiveBufferBytes), max_sockets_(max_sockets) {}

Status SockDiagReader::read(std::vector<DiagSocket>& out) {
  out.clear();
  dropped_ = 0;
  for (const auto& [family, protocol] : requests()) {
    if (protocol == SocketProtocol::udp && !udp_available_) continue;
    const Status dumped = dump(family, protocol, out);
    if (dumped) continue;
    if (family == AF_UNSPEC && last_errno_ != 0) {
      tcp_combined_ = false;  // refused, not failed: this kernel gets per-family requests
      return read(out);
    }
    std::string error =
        std::string("sock_diag ") + describe(family, protocol) + " dump: " + dumped.error();
    try {
      socket_ = open_netlink();  // drops whatever is left of the failed dump
    } catch (const std::system_error& e) {
      error += std::string("; reopening failed: ") + e.what();
    }
    return Error{std::move(error)};
  }
  return {};
}

std::vector<std::pair<uint8_t, SocketProtocol>> SockDiagReader::requests() const {
  std::vector<std::pair<uint8_t, SocketProtocol>> all;
  if (tcp_combined_) {
    all.emplace_back(AF_UNSPEC, SocketProtocol::tcp);
  } else {
    all.emplace_back(AF_INET, SocketProtocol::tcp);
    all.emplace_back(AF_INET6, SocketProtocol::tcp);
  }
  all.emplace_back(AF_INET, SocketProtocol::udp);
  all.emplace_back(AF_INET6, SocketProtocol::udp);
  return all;
}

Status SockDiagReader::send_request(uint8_t family, SocketProtocol protocol) {
  sockaddr_nl kernel{};
  kernel.nl_family = AF_NETLINK;
  auto send = [&](const auto& message) -> Status {
    if (::sendto(socket_.get(), &message, sizeof(message), 0,
                 reinterpret_cast<const sockaddr*>(&kernel), sizeof(kernel)) >= 0) {
      return {};
    }
    return Error{std::string("sendto: ") + std::strerror(errno)};
  };
  if (family == AF_UNSPEC) {  // TCPDIAG_GETSOCK: TCP of both families in one walk
    struct {
      nlmsghdr header;
      inet_diag_req request;
    } message{};
    message.header = {sizeof(message), TCPDIAG_GETSOCK, NLM_F_REQUEST | NLM_F_DUMP, ++sequence_, 0};
    message.request.idiag_ext = 1U << (INET_DIAG_INFO - 1);
    message.request.idiag_states = ~0U;  // every state, LISTEN and TIME_WAIT included
    return send(message);
  }
  struct {
    nlmsghdr header;
    inet_diag_req_v2 request;
  } message{};
  message.header = {sizeof(message), SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST | NLM_F_DUMP, ++sequence_,
                    0};
  message.request.sdiag_family = family;
  message.request.sdiag_protocol = protocol == SocketProtocol::tcp ? IPPROTO_TCP : IPPROTO_UDP;
  message.request.idiag_ext = 1U << (INET_DIAG_INFO - 1);
  message.request.idiag_states = ~0U;
  return send(message);
}

Status SockDiagReader::dump(uint8_t family, SocketProtocol protocol, std::vector<DiagSocket>& out) {
  last_errno_ = 0;
  if (!socket_) return Error{"no netlink socket"};
  if (Status sent = send_request(family, protocol); !sent) return sent;
  // Every datagram but the last carries at least one socket, so this bounds the loop.
  const size_t max_datagrams = max_sockets_ + 16;
  for (size_t datagram = 0; datagram < max_datagrams; ++datagram) {
    const ssize_t received = ::recv(socket_.get(), buffer_.data(), buffer_.size(), 0);
    if (received < 0) {
      if (errno == EINTR) continue;
      return Error{std::string("recv: ") + std::strerror(errno)};
    }
    const InetDiagParse parsed =
        parse_inet_diag(std::span(buffer_).first(static_cast<size_t>(received)), protocol, out);
    if (out.size() > max_sockets_) {
      dropped_ += out.size() - max_sockets_;
      out.resize(max_sockets_);
    }
    if (parsed.netlink_errno == ENOENT && protocol == SocketProtocol::udp) {
      udp_available_ = false;  // no udp_diag in this kernel: the UDP rows stay empty from now on
      return {};
    }
    if (!parsed.error.empty()) {
      last_errno_ = parsed.netlink_errno;
      return Error{parsed.error};
    }
    if (parsed.done) return {};
  }
  return Error{"no end of dump after " + std::to_string(max_datagrams) + " datagrams"};
}

}  // namespace flightrec::network
