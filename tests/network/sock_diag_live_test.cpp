// The sock_diag path against the running kernel: sockets this test opens on loopback must show up
// in the tables with this process as owner, and their bytes in the backend's per-process counters.
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "fake_proc_tree.h"
#include "flightrec/common/fd.h"
#include "flightrec/network/sock_diag.h"
#include "flightrec/network/sock_diag_backend.h"
#include "flightrec/network/socket_table.h"

using namespace flightrec;
using namespace std::chrono_literals;
using network::ProcessTraffic;
using network::SocketProtocol;
using network::SocketRow;

namespace {

constexpr size_t kBytes = 200'000;

sockaddr_in loopback_any_port() {
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  return address;
}

uint16_t local_port(const Fd& fd) {
  sockaddr_in address{};
  socklen_t length = sizeof(address);
  REQUIRE(::getsockname(fd.get(), reinterpret_cast<sockaddr*>(&address), &length) == 0);
  return ntohs(address.sin_port);
}

std::string loopback(uint16_t port) { return "127.0.0.1:" + std::to_string(port); }

Fd bound_socket(int type) {
  Fd fd(::socket(AF_INET, type | SOCK_CLOEXEC, 0));
  REQUIRE(fd);
  const sockaddr_in address = loopback_any_port();
  REQUIRE(::bind(fd.get(), reinterpret_cast<const sockaddr*>(&address), sizeof(address)) == 0);
  return fd;
}

Fd listener() {
  Fd fd = bound_socket(SOCK_STREAM);
  REQUIRE(::listen(fd.get(), 4) == 0);
  return fd;
}

// Connects to 127.0.0.1:port; -1 on failure (also usable in a forked child).
int connect_to(uint16_t port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address = loopback_any_port();
  address.sin_port = htons(port);
  if (fd < 0 || ::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof(address)) != 0) {
    return -1;
  }
  return fd;
}

bool send_all(int fd, size_t bytes) {
  const std::vector<char> block(4096, 'x');
  while (bytes > 0) {
    const ssize_t sent = ::send(fd, block.data(), std::min(bytes, block.size()), MSG_NOSIGNAL);
    if (sent <= 0) return false;
    bytes -= static_cast<size_t>(sent);
  }
  return true;
}

size_t receive_all(int fd, size_t bytes) {
  std::vector<char> block(65536);
  size_t received = 0;
  while (received < bytes) {
    const ssize_t got = ::recv(fd, block.data(), block.size(), 0);
    if (got <= 0) break;
    received += static_cast<size_t>(got);
  }
  return received;
}

// A TCP connection over loopback whose three sockets this process holds.
struct LoopbackConnection {
  Fd server = listener();
  Fd client{connect_to(local_port(server))};
  Fd accepted;
  LoopbackConnection() {
    REQUIRE(client);
    accepted = Fd(::accept4(server.get(), nullptr, nullptr, SOCK_CLOEXEC));
    REQUIRE(accepted);
  }
};

// Sends `bytes` from the client end and receives them all at the accepting end.
void transfer(const LoopbackConnection& connection, size_t bytes) {
  REQUIRE(send_all(connection.client.get(), bytes));
  REQUIRE(receive_all(connection.accepted.get(), bytes) == bytes);
}

const SocketRow* find(const std::vector<SocketRow>& rows, const std::string& local,
                      const std::string& remote) {
  const auto found = std::find_if(rows.begin(), rows.end(), [&](const SocketRow& row) {
    return row.local == local && row.remote == remote;
  });
  return found == rows.end() ? nullptr : &*found;
}

const ProcessTraffic* find(const network::TrafficReading& reading, int32_t pid) {
  const auto found = std::find_if(reading.processes.begin(), reading.processes.end(),
                                  [&](const ProcessTraffic& p) { return p.pid == pid; });
  return found == reading.processes.end() ? nullptr : &*found;
}

// Reads the backend until `done` holds (ACKs on loopback land within microseconds, but the test
// must not depend on it) or two seconds pass.
network::TrafficReading read_until(
    network::SockDiagBackend& backend,
    const std::function<bool(const network::TrafficReading&)>& done) {
  network::TrafficReading reading;
  for (int attempt = 0; attempt < 200; ++attempt) {
    REQUIRE(backend.read(reading));
    if (done(reading)) break;
    std::this_thread::sleep_for(10ms);
  }
  return reading;
}

}  // namespace

TEST_CASE(
    "the socket table shows a loopback listener, both ends of its connection and a UDP "
    "socket, all owned by this process",
    "[sock_diag][live]") {
  const LoopbackConnection connection;
  const uint16_t port = local_port(connection.server);
  const Fd udp = bound_socket(SOCK_DGRAM);
  const int32_t self = ::getpid();

  network::SocketTable table{sampler::ProcRoot{}};
  std::vector<SocketRow> rows;
  const flightrec::Status read = table.read(rows);
  CHECK(read.error().empty());
  REQUIRE(read);

  const SocketRow* listening = find(rows, loopback(port), "");
  REQUIRE(listening != nullptr);
  CHECK(listening->listening);
  CHECK(listening->state == network::kTcpListen);
  CHECK(listening->pid == self);

  const std::string client_address = loopback(local_port(connection.client));
  const SocketRow* outgoing = find(rows, client_address, loopback(port));
  REQUIRE(outgoing != nullptr);
  CHECK_FALSE(outgoing->listening);
  CHECK(outgoing->state == network::kTcpEstablished);
  CHECK(outgoing->pid == self);
  const SocketRow* incoming = find(rows, loopback(port), client_address);
  REQUIRE(incoming != nullptr);
  CHECK(incoming->pid == self);
  CHECK(incoming->uid == ::getuid());

  const SocketRow* bound = find(rows, loopback(local_port(udp)), "");
  REQUIRE(bound != nullptr);
  CHECK(bound->protocol == SocketProtocol::udp);
  CHECK(bound->listening);
  CHECK(bound->pid == self);
}

TEST_CASE("the backend charges a child's sent bytes to the child and keeps them after it exits",
          "[sock_diag][live]") {
  const Fd server = listener();
  const uint16_t port = local_port(server);
  network::SockDiagBackend backend{sampler::ProcRoot{}};
  CHECK(backend.name() == "sock_diag");
  network::TrafficReading reading;
  REQUIRE(backend.read(reading));  // the baseline: counting starts here

  int release[2];
  REQUIRE(::pipe2(release, O_CLOEXEC) == 0);
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    // Sends, then keeps the socket open until the parent has read the counters.
    const int fd = connect_to(port);
    char go = 0;
    const bool sent = fd >= 0 && send_all(fd, kBytes) && ::read(release[0], &go, 1) == 1;
    ::_exit(sent ? 0 : 1);
  }
  ::close(release[0]);
  const Fd write_end(release[1]);
  const Fd accepted(::accept4(server.get(), nullptr, nullptr, SOCK_CLOEXEC));
  REQUIRE(accepted);
  REQUIRE(receive_all(accepted.get(), kBytes) == kBytes);

  const int32_t self = ::getpid();
  reading = read_until(backend, [&](const network::TrafficReading& r) {
    const ProcessTraffic* sender = find(r, child);
    return sender != nullptr && sender->counters.tx_bytes >= kBytes;
  });
  const ProcessTraffic* sender = find(reading, child);
  REQUIRE(sender != nullptr);
  // bytes_acked counts the SYN of the active open as one byte.
  CHECK(sender->counters.tx_bytes >= kBytes);
  CHECK(sender->counters.tx_bytes <= kBytes + 1);
  CHECK(sender->counters.tx_packets > 0);
  CHECK(sender->counters.rx_bytes == 0);
  CHECK_FALSE(sender->exited);
  const ProcessTraffic* receiver = find(reading, self);
  REQUIRE(receiver != nullptr);
  CHECK(receiver->counters.rx_bytes == kBytes);
  CHECK(receiver->counters.tx_bytes == 0);
  REQUIRE(reading.unattributed.has_value());

  std::vector<SocketRow> rows;
  backend.sockets(rows);
  CHECK(std::any_of(rows.begin(), rows.end(), [&](const SocketRow& row) {
    return row.pid == child && row.remote == loopback(port);
  }));

  REQUIRE(::write(write_end.get(), "x", 1) == 1);
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 0);
  REQUIRE(backend.read(reading));
  const ProcessTraffic* gone = find(reading, child);
  REQUIRE(gone != nullptr);
  CHECK(gone->exited);
  CHECK(gone->counters.tx_bytes >= kBytes);
  REQUIRE(backend.read(reading));
  CHECK(find(reading, child) == nullptr);  // reported exited once, then forgotten
}

TEST_CASE("sockets open at the first read count only what they move afterwards",
          "[sock_diag][live]") {
  const LoopbackConnection connection;
  transfer(connection, kBytes);

  network::SockDiagBackend backend{sampler::ProcRoot{}};
  const int32_t self = ::getpid();
  // Wait for the ACKs of the first batch, so that the baseline holds all of it.
  std::vector<SocketRow> rows;
  network::TrafficReading reading;
  network::SocketTable table{sampler::ProcRoot{}};
  const std::string client_address = loopback(local_port(connection.client));
  for (int attempt = 0; attempt < 200; ++attempt) {
    REQUIRE(table.read(rows));
    const SocketRow* row = find(rows, client_address, loopback(local_port(connection.server)));
    REQUIRE(row != nullptr);
    if (row->tx_bytes.value_or(0) > kBytes) break;
    std::this_thread::sleep_for(10ms);
  }
  REQUIRE(backend.read(reading));

  constexpr size_t kMore = 3000;
  transfer(connection, kMore);
  reading = read_until(backend, [&](const network::TrafficReading& r) {
    const ProcessTraffic* p = find(r, self);
    return p != nullptr && p->counters.tx_bytes >= kMore;
  });
  const ProcessTraffic* process = find(reading, self);
  REQUIRE(process != nullptr);
  CHECK(process->counters.tx_bytes == kMore);
  CHECK(process->counters.rx_bytes == kMore);
}

TEST_CASE("traffic of sockets no visible process holds is unattributed", "[sock_diag][live]") {
  // A procfs with no processes: every socket's owner is unknown.
  const testing::FakeProcTree empty;
  sampler::ProcRoot root;
  root.procfs = empty.root();
  network::SockDiagBackend backend{root};
  network::TrafficReading reading;
  REQUIRE(backend.read(reading));
  const uint64_t before = reading.unattributed.value_or(network::NetCounters{}).rx_bytes;

  const LoopbackConnection connection;
  transfer(connection, kBytes);
  reading = read_until(backend, [&](const network::TrafficReading& r) {
    return r.unattributed && r.unattributed->rx_bytes >= before + kBytes;
  });
  CHECK(reading.processes.empty());
  REQUIRE(reading.unattributed.has_value());
  CHECK(reading.unattributed->rx_bytes >= before + kBytes);
}

TEST_CASE("one read lists TCP listeners of both families and UDP sockets", "[sock_diag][live]") {
  const Fd tcp4 = listener();
  Fd tcp6(::socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0));
  REQUIRE(tcp6);
  sockaddr_in6 any6{};
  any6.sin6_family = AF_INET6;
  any6.sin6_addr = in6addr_loopback;
  REQUIRE(::bind(tcp6.get(), reinterpret_cast<const sockaddr*>(&any6), sizeof(any6)) == 0);
  REQUIRE(::listen(tcp6.get(), 4) == 0);
  socklen_t length = sizeof(any6);
  REQUIRE(::getsockname(tcp6.get(), reinterpret_cast<sockaddr*>(&any6), &length) == 0);
  const Fd udp = bound_socket(SOCK_DGRAM);

  network::SockDiagReader reader;
  std::vector<network::DiagSocket> sockets;
  REQUIRE(reader.read(sockets));
  auto has = [&](const std::string& local, uint8_t family) {
    return std::any_of(sockets.begin(), sockets.end(), [&](const network::DiagSocket& s) {
      return s.row.local == local && s.row.family == family;
    });
  };
  CHECK(has(loopback(local_port(tcp4)), AF_INET));
  CHECK(has("[::1]:" + std::to_string(ntohs(any6.sin6_port)), AF_INET6));
  CHECK(has(loopback(local_port(udp)), AF_INET));
}
