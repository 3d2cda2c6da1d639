// Parses SOCK_DIAG_BY_FAMILY dump replies: netlink messages, each an inet_diag_msg followed by
// rtattrs, of which only INET_DIAG_INFO (struct tcp_info) is read. Every length is checked against
// the bytes that are really there, and the kernel structs are copied out with memcpy because a
// datagram (or a fuzzer's input) need not be aligned.
#include <arpa/inet.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <linux/tcp.h>
#include <sys/socket.h>

#include <cstddef>
#include <cstring>
#include <string>

#include "flightrec/network/sock_diag.h"

namespace flightrec::network {
namespace {

template <typename T>
T load(std::span<const uint8_t> bytes, size_t offset) {
  T value;
  std::memcpy(&value, bytes.data() + offset, sizeof(T));
  return value;
}

constexpr size_t align4(size_t length) { return (length + 3U) & ~size_t{3}; }
// Linux never reports an errno above this (include/linux/err.h).
constexpr int kMaxErrno = 4095;

std::string at(size_t offset) { return " at offset " + std::to_string(offset); }

// A tcp_info field is present when the kernel's struct reaches past its end.
template <typename Field>
std::optional<uint64_t> tcp_info_field(std::span<const uint8_t> info, size_t field_offset) {
  if (info.size() < field_offset + sizeof(Field)) return std::nullopt;
  return load<Field>(info, field_offset);
}

void read_tcp_info(std::span<const uint8_t> info, DiagSocket& socket) {
  socket.row.tx_bytes = tcp_info_field<uint64_t>(info, offsetof(tcp_info, tcpi_bytes_acked));
  socket.row.rx_bytes = tcp_info_field<uint64_t>(info, offsetof(tcp_info, tcpi_bytes_received));
  socket.tx_packets = tcp_info_field<uint32_t>(info, offsetof(tcp_info, tcpi_segs_out));
  socket.rx_packets = tcp_info_field<uint32_t>(info, offsetof(tcp_info, tcpi_segs_in));
}

// Walks the rtattrs in [begin, end) of one message.
Status read_attributes(std::span<const uint8_t> bytes, size_t begin, size_t end,
                       SocketProtocol protocol, DiagSocket& socket) {
  size_t offset = begin;
  while (offset < end) {
    if (end - offset < sizeof(rtattr)) return Error{"attribute header cut short" + at(offset)};
    const auto attribute = load<rtattr>(bytes, offset);
    if (attribute.rta_len < sizeof(rtattr) || attribute.rta_len > end - offset) {
      return Error{"attribute length " + std::to_string(attribute.rta_len) + " does not fit" +
                   at(offset)};
    }
    if (attribute.rta_type == INET_DIAG_INFO && protocol == SocketProtocol::tcp) {
      const size_t payload = offset + align4(sizeof(rtattr));
      read_tcp_info(bytes.subspan(payload, offset + attribute.rta_len - payload), socket);
    }
    // The last attribute may end without its padding.
    offset += std::min(align4(attribute.rta_len), end - offset);
  }
  return {};
}

Status read_socket(std::span<const uint8_t> bytes, size_t offset, size_t end,
                   SocketProtocol protocol, DiagSocket& socket) {
  if (end - offset < sizeof(inet_diag_msg)) {
    return Error{"inet_diag_msg needs " + std::to_string(sizeof(inet_diag_msg)) +
                 " bytes, message has " + std::to_string(end - offset) + at(offset)};
  }
  const auto message = load<inet_diag_msg>(bytes, offset);
  const size_t address_size = message.idiag_family == AF_INET    ? 4
                              : message.idiag_family == AF_INET6 ? 16
                                                                 : 0;
  if (address_size == 0) {
    return Error{"address family " + std::to_string(message.idiag_family) +
                 " is neither IPv4 nor IPv6" + at(offset)};
  }
  SocketRow& row = socket.row;
  row.protocol = protocol;
  row.family = message.idiag_family;
  row.state = message.idiag_state;
  row.inode = message.idiag_inode;
  row.uid = message.idiag_uid;
  socket.cookie = message.id.idiag_cookie[0] | uint64_t{message.id.idiag_cookie[1]} << 32;
  const auto source = std::as_bytes(std::span(message.id.idiag_src)).first(address_size);
  const auto destination = std::as_bytes(std::span(message.id.idiag_dst)).first(address_size);
  row.local = format_socket_address(
      row.family, {reinterpret_cast<const uint8_t*>(source.data()), source.size()},
      ntohs(message.id.idiag_sport));
  row.listening =
      protocol == SocketProtocol::tcp ? row.state == kTcpListen : row.state == kTcpClose;
  if (!row.listening) {
    row.remote = format_socket_address(
        row.family, {reinterpret_cast<const uint8_t*>(destination.data()), destination.size()},
        ntohs(message.id.idiag_dport));
  }
  return read_attributes(bytes, offset + align4(sizeof(inet_diag_msg)), end, protocol, socket);
}

}  // namespace

InetDiagParse parse_inet_diag(std::span<const uint8_t> bytes, SocketProtocol protocol,
                              std::vector<DiagSocket>& out) {
  InetDiagParse result;
  size_t offset = 0;
  while (offset < bytes.size()) {
    const size_t left = bytes.size() - offset;
    if (left < sizeof(nlmsghdr)) {
      result.error = "netlink header cut short (" + std::to_string(left) + " bytes)" + at(offset);
      return result;
    }
    const auto header = load<nlmsghdr>(bytes, offset);
    if (header.nlmsg_len < sizeof(nlmsghdr) || header.nlmsg_len > left) {
      result.error = "netlink message length " + std::to_string(header.nlmsg_len) +
                     " does not fit in the " + std::to_string(left) + " bytes left" + at(offset);
      return result;
    }
    const size_t payload = offset + align4(sizeof(nlmsghdr));
    const size_t end = offset + header.nlmsg_len;
    switch (header.nlmsg_type) {
      case NLMSG_DONE:
        result.done = true;
        return result;
      case NLMSG_ERROR: {
        if (end - payload < sizeof(int)) {
          result.error = "netlink error message cut short" + at(offset);
          return result;
        }
        const int error = load<int>(bytes, payload);
        // The kernel sends a negated errno, which is never below -4095 (MAX_ERRNO); anything else
        // is damage, and negating INT_MIN would overflow. An ACK (error 0) cannot answer a dump
        // request, so it is a failure too.
        if (error < -kMaxErrno || error > 0) {
          result.error =
              "netlink error message with impossible code " + std::to_string(error) + at(offset);
          return result;
        }
        if (error == 0) {
          result.error = "kernel acknowledged instead of answering the dump" + at(offset);
          return result;
        }
        result.netlink_errno = -error;
        result.error = "kernel answered with error " + std::to_string(result.netlink_errno) + " (" +
                       std::strerror(result.netlink_errno) + ")" + at(offset);
        return result;
      }
      case NLMSG_NOOP:
        break;
      case SOCK_DIAG_BY_FAMILY:
      case TCPDIAG_GETSOCK: {  // the answer to the request for TCP of both families
        DiagSocket socket;
        if (Status read = read_socket(bytes, payload, end, protocol, socket); !read) {
          result.error = std::move(read).error();
          return result;
        }
        out.push_back(std::move(socket));
        break;
      }
      default:
        result.error =
            "unexpected netlink message type " + std::to_string(header.nlmsg_type) + at(offset);
        return result;
    }
    offset += std::min(size_t{NLMSG_ALIGN(header.nlmsg_len)}, left);
  }
  return result;
}

std::string format_socket_address(uint8_t family, std::span<const uint8_t> address, uint16_t port) {
  const size_t needed = family == AF_INET6 ? 16 : 4;
  char text[INET6_ADDRSTRLEN] = {};
  if (address.size() < needed || inet_ntop(family, address.data(), text, sizeof(text)) == nullptr) {
    return {};
  }
  const std::string port_text = ":" + std::to_string(port);
  if (family == AF_INET6) return "[" + std::string(text) + "]" + port_text;
  return text + port_text;
}

}  // namespace flightrec::network
