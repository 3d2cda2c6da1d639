// parse_inet_diag on replies captured from a real kernel (tests/fixtures/sock_diag/capture.py
// says how) and on hand-cut broken ones.
#include <linux/netlink.h>
#include <sys/socket.h>

#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "flightrec/network/sock_diag.h"

using namespace flightrec::network;

namespace {

std::vector<uint8_t> fixture(const std::string& name) {
  std::ifstream file(std::string(FLIGHTREC_FIXTURES) + "/sock_diag/" + name, std::ios::binary);
  REQUIRE(file.good());
  std::ostringstream bytes;  // rdbuf, not istreambuf_iterator: g++ 12 -O3 warns inside it
  bytes << file.rdbuf();
  const std::string text = bytes.str();
  return {text.begin(), text.end()};
}

// The ports the capture used, by role: "tcp4_listener", "tcp4_client", "tcp6_listener", "udp4".
std::map<std::string, uint16_t> captured_ports() {
  std::ifstream file(std::string(FLIGHTREC_FIXTURES) + "/sock_diag/ports.txt");
  std::map<std::string, uint16_t> ports;
  std::string role;
  unsigned port = 0;
  while (file >> role >> port) ports[role] = static_cast<uint16_t>(port);
  REQUIRE(ports.size() == 4);
  return ports;
}

std::string loopback(uint16_t port) { return "127.0.0.1:" + std::to_string(port); }

const DiagSocket& find_local(const std::vector<DiagSocket>& sockets, const std::string& local) {
  const auto found = std::find_if(sockets.begin(), sockets.end(),
                                  [&](const DiagSocket& s) { return s.row.local == local; });
  REQUIRE(found != sockets.end());
  return *found;
}

uint32_t first_message_length(const std::vector<uint8_t>& bytes) {
  uint32_t length = 0;
  std::memcpy(&length, bytes.data(), sizeof(length));
  return length;
}

}  // namespace

TEST_CASE("a captured TCP dump gives the listener and both ends of the loopback connection",
          "[sock_diag]") {
  const auto ports = captured_ports();
  std::vector<DiagSocket> sockets;
  const InetDiagParse parsed = parse_inet_diag(fixture("tcp4.bin"), SocketProtocol::tcp, sockets);
  CHECK(parsed.error.empty());
  CHECK(parsed.done);
  REQUIRE(sockets.size() == 3);

  const auto& listener = find_local(sockets, loopback(ports.at("tcp4_listener"))).row;
  CHECK(listener.listening);
  CHECK(listener.state == kTcpListen);
  CHECK(listener.remote.empty());
  CHECK(listener.family == AF_INET);
  CHECK(listener.inode != 0);

  const auto& client = find_local(sockets, loopback(ports.at("tcp4_client")));
  CHECK_FALSE(client.row.listening);
  CHECK(client.row.state == kTcpEstablished);
  CHECK(client.row.remote == loopback(ports.at("tcp4_listener")));
  // The capture sent 1000 bytes and got 300 back; bytes_acked counts the SYN as one more.
  CHECK(client.row.tx_bytes == 1001U);
  CHECK(client.row.rx_bytes == 300U);
  CHECK(client.tx_packets.value_or(0) > 0);
  CHECK(client.cookie != 0);

  const auto& server = *std::find_if(sockets.begin(), sockets.end(), [&](const DiagSocket& s) {
    return s.row.remote == loopback(ports.at("tcp4_client"));
  });
  CHECK(server.row.local == loopback(ports.at("tcp4_listener")));
  CHECK(server.row.tx_bytes == 300U);
  CHECK(server.row.rx_bytes == 1000U);
  CHECK(server.cookie != client.cookie);
}

TEST_CASE("an IPv6 listener's address is bracketed", "[sock_diag]") {
  const auto ports = captured_ports();
  std::vector<DiagSocket> sockets;
  const InetDiagParse parsed = parse_inet_diag(fixture("tcp6.bin"), SocketProtocol::tcp, sockets);
  CHECK(parsed.error.empty());
  REQUIRE(sockets.size() == 1);
  CHECK(sockets[0].row.local == "[::1]:" + std::to_string(ports.at("tcp6_listener")));
  CHECK(sockets[0].row.family == AF_INET6);
  CHECK(sockets[0].row.listening);
}

TEST_CASE("the answer to the request for TCP of both families holds IPv4 and IPv6 rows",
          "[sock_diag]") {
  const auto ports = captured_ports();
  std::vector<DiagSocket> sockets;
  const InetDiagParse parsed =
      parse_inet_diag(fixture("tcp_both.bin"), SocketProtocol::tcp, sockets);
  CHECK(parsed.error.empty());
  CHECK(parsed.done);
  REQUIRE(sockets.size() == 4);  // the tcp4 listener, both ends of its connection, the tcp6 one
  CHECK(find_local(sockets, loopback(ports.at("tcp4_listener"))).row.family == AF_INET);
  CHECK(find_local(sockets, loopback(ports.at("tcp4_client"))).row.tx_bytes == 1001U);
  CHECK(find_local(sockets, "[::1]:" + std::to_string(ports.at("tcp6_listener"))).row.family ==
        AF_INET6);
}

TEST_CASE("an unconnected UDP socket is listening and has no byte counters", "[sock_diag]") {
  const auto ports = captured_ports();
  std::vector<DiagSocket> sockets;
  const InetDiagParse parsed = parse_inet_diag(fixture("udp4.bin"), SocketProtocol::udp, sockets);
  CHECK(parsed.error.empty());
  CHECK(parsed.done);
  REQUIRE(sockets.size() == 1);
  const SocketRow& udp = sockets[0].row;
  CHECK(udp.protocol == SocketProtocol::udp);
  CHECK(udp.local == loopback(ports.at("udp4")));
  CHECK(udp.state == kTcpClose);
  CHECK(udp.listening);
  CHECK(udp.remote.empty());
  CHECK_FALSE(udp.tx_bytes.has_value());
  CHECK_FALSE(sockets[0].tx_packets.has_value());
}

TEST_CASE("tcp_info from a kernel before 4.1 gives no byte counters", "[sock_diag]") {
  std::vector<DiagSocket> sockets;
  const InetDiagParse parsed =
      parse_inet_diag(fixture("tcp4_linux40.bin"), SocketProtocol::tcp, sockets);
  CHECK(parsed.error.empty());
  REQUIRE(sockets.size() == 3);
  for (const DiagSocket& socket : sockets) {
    CHECK_FALSE(socket.row.tx_bytes.has_value());
    CHECK_FALSE(socket.row.rx_bytes.has_value());
    CHECK_FALSE(socket.tx_packets.has_value());
  }
}

TEST_CASE("tcp_info from Linux 4.1 gives bytes but no segment counts", "[sock_diag]") {
  const auto ports = captured_ports();
  std::vector<DiagSocket> sockets;
  const InetDiagParse parsed =
      parse_inet_diag(fixture("tcp4_linux41.bin"), SocketProtocol::tcp, sockets);
  CHECK(parsed.error.empty());
  const auto& client = find_local(sockets, loopback(ports.at("tcp4_client")));
  CHECK(client.row.tx_bytes == 1001U);
  CHECK(client.row.rx_bytes == 300U);
  CHECK_FALSE(client.tx_packets.has_value());
  CHECK_FALSE(client.rx_packets.has_value());
}

TEST_CASE("a reply cut inside a message names the offset and keeps the rows before it",
          "[sock_diag]") {
  const auto whole = fixture("tcp4.bin");
  std::vector<DiagSocket> sockets;
  const InetDiagParse parsed =
      parse_inet_diag(fixture("truncated.bin"), SocketProtocol::tcp, sockets);
  CHECK_FALSE(parsed.done);
  CHECK_THAT(parsed.error,
             Catch::Contains("at offset " + std::to_string(first_message_length(whole))));
  CHECK(sockets.size() == 1);
}

TEST_CASE("an attribute longer than its message is an error at the attribute's offset",
          "[sock_diag]") {
  std::vector<DiagSocket> sockets;
  const InetDiagParse parsed =
      parse_inet_diag(fixture("bad_attribute.bin"), SocketProtocol::tcp, sockets);
  CHECK_THAT(parsed.error, Catch::Contains("attribute length"));
  CHECK_THAT(parsed.error, Catch::Contains("at offset 88"));  // 16-byte header + inet_diag_msg
  CHECK(sockets.empty());
}

TEST_CASE("bytes that are not netlink are an error at offset 0", "[sock_diag]") {
  std::vector<DiagSocket> sockets;
  const InetDiagParse parsed =
      parse_inet_diag(fixture("garbage.bin"), SocketProtocol::tcp, sockets);
  CHECK_THAT(parsed.error, Catch::Contains("at offset 0"));
  CHECK(sockets.empty());
}

TEST_CASE("every prefix of a captured reply parses to rows or an error naming an offset",
          "[sock_diag]") {
  const auto whole = fixture("tcp4.bin");
  for (size_t length = 0; length < whole.size(); ++length) {
    std::vector<DiagSocket> sockets;
    const InetDiagParse parsed =
        parse_inet_diag(std::span(whole).first(length), SocketProtocol::tcp, sockets);
    CHECK_FALSE(parsed.done);  // NLMSG_DONE is the last message: no prefix holds it
    if (!parsed.error.empty()) CHECK_THAT(parsed.error, Catch::Contains("at offset"));
    CHECK(sockets.size() <= 3);
  }
}

TEST_CASE("a kernel error reply gives its errno", "[sock_diag]") {
  std::array<uint8_t, 36> bytes{};
  const nlmsghdr header{36, NLMSG_ERROR, 0, 1, 0};
  const int error = -ENOENT;
  std::memcpy(bytes.data(), &header, sizeof(header));
  std::memcpy(bytes.data() + sizeof(header), &error, sizeof(error));
  std::vector<DiagSocket> sockets;
  const InetDiagParse parsed = parse_inet_diag(bytes, SocketProtocol::udp, sockets);
  CHECK(parsed.netlink_errno == ENOENT);
  CHECK_THAT(parsed.error, Catch::Contains("at offset 0"));
}

TEST_CASE("an error reply with an impossible code or an ACK is a failure without an errno",
          "[sock_diag]") {
  for (const int code : {std::numeric_limits<int>::min(), -4096, 5, 0}) {
    std::array<uint8_t, 36> bytes{};
    const nlmsghdr header{36, NLMSG_ERROR, 0, 1, 0};
    std::memcpy(bytes.data(), &header, sizeof(header));
    std::memcpy(bytes.data() + sizeof(header), &code, sizeof(code));
    std::vector<DiagSocket> sockets;
    const InetDiagParse parsed = parse_inet_diag(bytes, SocketProtocol::tcp, sockets);
    CAPTURE(code);
    CHECK(parsed.netlink_errno == 0);
    CHECK_FALSE(parsed.done);
    CHECK_THAT(parsed.error, Catch::Contains(code == 0 ? "acknowledged" : "impossible code"));
  }
}

TEST_CASE("addresses are formatted the way ss and the tables show them", "[sock_diag]") {
  const std::array<uint8_t, 4> v4{10, 0, 2, 15};
  CHECK(format_socket_address(AF_INET, v4, 22) == "10.0.2.15:22");
  std::array<uint8_t, 16> v6{};
  CHECK(format_socket_address(AF_INET6, v6, 9717) == "[::]:9717");
  v6[15] = 1;
  CHECK(format_socket_address(AF_INET6, v6, 80) == "[::1]:80");
  CHECK(format_socket_address(AF_INET6, v4, 80).empty());  // too few bytes for IPv6
}
