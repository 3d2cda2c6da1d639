// One netlink socket, four dump requests per read (TCP and UDP, each over IPv4 and IPv6), each
// answered by datagrams that parse_inet_diag turns into rows.
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
  if (protocol == SocketProtocol::tcp) return v6 ? "tcp6" : "tcp";
  return v6 ? "udp6" : "udp";
}

}  // namespace

SockDiagReader::SockDiagReader(size_t max_sockets)
    : socket_(open_netlink()), buffer_(kReceiveBufferBytes), max_sockets_(max_sockets) {}

bool SockDiagReader::read(std::vector<DiagSocket>& out, std::string& error) {
  out.clear();
  dropped_ = 0;
  for (const SocketProtocol protocol : {SocketProtocol::tcp, SocketProtocol::udp}) {
    for (const uint8_t family : {uint8_t{AF_INET}, uint8_t{AF_INET6}}) {
      if (protocol == SocketProtocol::udp && !udp_available_) continue;
      if (dump(family, protocol, out, error)) continue;
      error.insert(0,
                   std::string("sock_diag ").append(describe(family, protocol)).append(" dump: "));
      try {
        socket_ = open_netlink();  // drops whatever is left of the failed dump
      } catch (const std::system_error& e) {
        error += std::string("; reopening failed: ") + e.what();
      }
      return false;
    }
  }
  return true;
}

bool SockDiagReader::dump(uint8_t family, SocketProtocol protocol, std::vector<DiagSocket>& out,
                          std::string& error) {
  if (!socket_) {
    error = "no netlink socket";
    return false;
  }
  struct {
    nlmsghdr header;
    inet_diag_req_v2 request;
  } message{};
  message.header.nlmsg_len = sizeof(message);
  message.header.nlmsg_type = SOCK_DIAG_BY_FAMILY;
  message.header.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
  message.header.nlmsg_seq = ++sequence_;
  message.request.sdiag_family = family;
  message.request.sdiag_protocol = protocol == SocketProtocol::tcp ? IPPROTO_TCP : IPPROTO_UDP;
  message.request.idiag_ext = 1U << (INET_DIAG_INFO - 1);
  message.request.idiag_states = ~0U;  // every state, LISTEN and TIME_WAIT included
  sockaddr_nl kernel{};
  kernel.nl_family = AF_NETLINK;
  if (::sendto(socket_.get(), &message, sizeof(message), 0, reinterpret_cast<sockaddr*>(&kernel),
               sizeof(kernel)) < 0) {
    error = std::string("sendto: ") + std::strerror(errno);
    return false;
  }
  // Every datagram but the last carries at least one socket, so this bounds the loop.
  const size_t max_datagrams = max_sockets_ + 16;
  for (size_t datagram = 0; datagram < max_datagrams; ++datagram) {
    const ssize_t received = ::recv(socket_.get(), buffer_.data(), buffer_.size(), 0);
    if (received < 0) {
      if (errno == EINTR) continue;
      error = std::string("recv: ") + std::strerror(errno);
      return false;
    }
    const InetDiagParse parsed =
        parse_inet_diag(std::span(buffer_).first(static_cast<size_t>(received)), protocol, out);
    if (out.size() > max_sockets_) {
      dropped_ += out.size() - max_sockets_;
      out.resize(max_sockets_);
    }
    if (parsed.netlink_errno == ENOENT && protocol == SocketProtocol::udp) {
      udp_available_ = false;  // no udp_diag in this kernel: the UDP rows stay empty from now on
      return true;
    }
    if (!parsed.error.empty()) {
      error = parsed.error;
      return false;
    }
    if (parsed.done) return true;
  }
  error = "no end of dump after " + std::to_string(max_datagrams) + " datagrams";
  return false;
}

}  // namespace flightrec::network
