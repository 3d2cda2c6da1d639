// parse_inet_diag on arbitrary bytes, as TCP and as UDP: it must never crash, and what it returns
// must keep the parser's promises.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "flightrec/network/sock_diag.h"

namespace {

void check(std::span<const uint8_t> bytes, flightrec::network::SocketProtocol protocol) {
  using namespace flightrec::network;
  std::vector<DiagSocket> sockets;
  const InetDiagParse parsed = parse_inet_diag(bytes, protocol, sockets);
  if (parsed.done && !parsed.error.empty()) __builtin_trap();
  if (parsed.netlink_errno != 0 && parsed.error.empty()) __builtin_trap();
  // Each socket needs at least a netlink header and an inet_diag_msg.
  if (sockets.size() * (16 + 72) > bytes.size()) __builtin_trap();
  for (const DiagSocket& socket : sockets) {
    const SocketRow& row = socket.row;
    if (row.protocol != protocol || row.local.empty()) __builtin_trap();
    if (row.listening != row.remote.empty()) __builtin_trap();
    if (protocol == SocketProtocol::udp && (row.tx_bytes || socket.tx_packets)) __builtin_trap();
    if (socket.tx_packets && !row.tx_bytes) __builtin_trap();  // segs_out follows bytes_acked
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::span<const uint8_t> bytes(data, size);
  check(bytes, flightrec::network::SocketProtocol::tcp);
  check(bytes, flightrec::network::SocketProtocol::udp);
  return 0;
}
