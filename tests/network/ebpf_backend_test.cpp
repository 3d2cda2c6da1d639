// The eBPF backend against real traffic: child processes send and receive known amounts over
// loopback and the backend must charge them to the right PIDs. Needs root and a kernel that lets
// the programs load; elsewhere the tests are skipped with a warning, unless
// FLIGHTREC_REQUIRE_EBPF=1 (CI) turns that into a failure.
#include "flightrec/network/ebpf_backend.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "flightrec/common/fd.h"

namespace {

using flightrec::Fd;
using flightrec::network::make_ebpf_backend;
using flightrec::network::ProcessTraffic;
using flightrec::network::TrafficBackend;
using flightrec::network::TrafficReading;

std::unique_ptr<TrafficBackend> backend_or_skip() {
  const char* required = std::getenv("FLIGHTREC_REQUIRE_EBPF");
  const bool must_run = required != nullptr && std::string(required) == "1";
  if (geteuid() != 0) {
    if (must_run) FAIL("FLIGHTREC_REQUIRE_EBPF=1 but not running as root");
    WARN("SKIPPED: the eBPF backend needs root");
    return nullptr;
  }
  auto backend = make_ebpf_backend("/sys/fs/cgroup");
  if (!backend) {
    if (must_run) FAIL("eBPF backend did not start: " << backend.error());
    WARN("SKIPPED: eBPF backend did not start: " << backend.error());
    return nullptr;
  }
  return *std::move(backend);
}

TrafficReading read_now(TrafficBackend& backend) {
  TrafficReading reading;
  const flightrec::Status read = backend.read(reading);
  INFO(read.error());
  REQUIRE(read);
  return reading;
}

const ProcessTraffic* find_pid(const TrafficReading& reading, pid_t pid) {
  const auto it = std::find_if(reading.processes.begin(), reading.processes.end(),
                               [pid](const ProcessTraffic& p) { return p.pid == pid; });
  return it == reading.processes.end() ? nullptr : &*it;
}

bool within_one_percent(uint64_t actual, uint64_t expected) {
  const uint64_t difference = actual > expected ? actual - expected : expected - actual;
  return difference * 100 <= expected;
}

// Runs `body` in a child process; its return value is the exit status (0: success).
pid_t spawn(const std::function<int()>& body) {
  const pid_t pid = fork();
  if (pid == 0) _exit(body());
  REQUIRE(pid > 0);
  return pid;
}

void require_clean_exit(pid_t pid) {
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  INFO("child " << pid << " status " << status);
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 0);
}

sockaddr_in loopback(uint16_t port) {
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(port);
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  return address;
}

sockaddr* as_sockaddr(sockaddr_in& address) { return reinterpret_cast<sockaddr*>(&address); }

// Binds `fd` to an ephemeral loopback port and returns the port (0 on failure).
uint16_t bind_loopback(int fd) {
  sockaddr_in address = loopback(0);
  socklen_t length = sizeof(address);
  if (bind(fd, as_sockaddr(address), sizeof(address)) != 0) return 0;
  if (getsockname(fd, as_sockaddr(address), &length) != 0) return 0;
  return ntohs(address.sin_port);
}

// A pipe the receiving child announces its port through before any traffic flows.
struct PortPipe {
  int fds[2] = {-1, -1};
  PortPipe() { REQUIRE(pipe(fds) == 0); }
  ~PortPipe() {
    close(fds[0]);
    close(fds[1]);
  }
  PortPipe(const PortPipe&) = delete;
  PortPipe& operator=(const PortPipe&) = delete;
  bool announce(uint16_t port) const { return write(fds[1], &port, sizeof(port)) == sizeof(port); }
  uint16_t await() const {
    uint16_t port = 0;
    REQUIRE(read(fds[0], &port, sizeof(port)) == sizeof(port));
    REQUIRE(port != 0);
    return port;
  }
};

constexpr size_t kTcpBytes = 3'000'000;
constexpr size_t kDatagrams = 400;
constexpr size_t kDatagramBytes = 1'200;

int receive_tcp(const PortPipe& pipe) {
  Fd listener(socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  const uint16_t port = bind_loopback(listener.get());
  if (port == 0 || listen(listener.get(), 1) != 0 || !pipe.announce(port)) return 1;
  Fd connection(accept(listener.get(), nullptr, nullptr));
  if (!connection) return 2;
  std::vector<char> buffer(65536);
  size_t received = 0;
  for (;;) {
    const ssize_t n = recv(connection.get(), buffer.data(), buffer.size(), 0);
    if (n < 0) return 3;
    if (n == 0) break;
    received += static_cast<size_t>(n);
  }
  return received == kTcpBytes ? 0 : 4;
}

int send_tcp(uint16_t port) {
  Fd connection(socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  sockaddr_in address = loopback(port);
  if (connect(connection.get(), as_sockaddr(address), sizeof(address)) != 0) return 1;
  const std::vector<char> payload(kTcpBytes, 'x');
  size_t sent = 0;
  while (sent < payload.size()) {
    const ssize_t n = send(connection.get(), payload.data() + sent, payload.size() - sent, 0);
    if (n <= 0) return 2;
    sent += static_cast<size_t>(n);
  }
  return 0;
}

int receive_udp(const PortPipe& pipe) {
  Fd socket_fd(socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0));
  // Every datagram must fit while the receiver is still starting: root may exceed rmem_max.
  const int buffer_bytes = 8 << 20;
  setsockopt(socket_fd.get(), SOL_SOCKET, SO_RCVBUFFORCE, &buffer_bytes, sizeof(buffer_bytes));
  const timeval timeout{.tv_sec = 3, .tv_usec = 0};
  setsockopt(socket_fd.get(), SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
  const uint16_t port = bind_loopback(socket_fd.get());
  if (port == 0 || !pipe.announce(port)) return 1;
  std::vector<char> buffer(kDatagramBytes * 2);
  for (size_t i = 0; i < kDatagrams; ++i) {
    if (recv(socket_fd.get(), buffer.data(), buffer.size(), 0) != kDatagramBytes) return 2;
  }
  return 0;
}

int send_udp(uint16_t port) {
  Fd socket_fd(socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0));
  sockaddr_in address = loopback(port);
  const std::vector<char> payload(kDatagramBytes, 'u');
  for (size_t i = 0; i < kDatagrams; ++i) {
    const ssize_t n = sendto(socket_fd.get(), payload.data(), payload.size(), 0,
                             as_sockaddr(address), sizeof(address));
    if (n != kDatagramBytes) return 1;
  }
  return 0;
}

// The two children of one loopback exchange, both exited cleanly.
struct Exchange {
  pid_t sender;
  pid_t receiver;
};

// Runs `receive` in one child and, once it has announced its port, `send` to that port in another.
Exchange exchange(const std::function<int(const PortPipe&)>& receive,
                  const std::function<int(uint16_t)>& send) {
  PortPipe pipe;
  const pid_t receiver = spawn([&] { return receive(pipe); });
  const pid_t sender = spawn([&send, port = pipe.await()] { return send(port); });
  require_clean_exit(sender);
  require_clean_exit(receiver);
  return {.sender = sender, .receiver = receiver};
}

}  // namespace

TEST_CASE("ebpf backend charges TCP payload to the sending and the receiving process",
          "[network][ebpf]") {
  auto backend = backend_or_skip();
  if (backend == nullptr) return;
  CHECK(backend->name() == "ebpf");
  const auto [sender, receiver] = exchange(receive_tcp, send_tcp);

  const TrafficReading reading = read_now(*backend);
  const ProcessTraffic* sent = find_pid(reading, sender);
  const ProcessTraffic* received = find_pid(reading, receiver);
  REQUIRE(sent != nullptr);
  REQUIRE(received != nullptr);
  INFO("sender tx " << sent->counters.tx_bytes << " receiver rx " << received->counters.rx_bytes);
  CHECK(within_one_percent(sent->counters.tx_bytes, kTcpBytes));
  CHECK(within_one_percent(received->counters.rx_bytes, kTcpBytes));
  CHECK(sent->counters.rx_bytes == 0);
  CHECK(received->counters.tx_bytes == 0);
  // The data went out as the sender's packets and came in as the receiver's; the ACKs the other
  // way. Loopback segments are up to 64 KiB, so at least N / 64 KiB of them.
  CHECK(sent->counters.tx_packets >= kTcpBytes / 65536);
  CHECK(received->counters.rx_packets >= kTcpBytes / 65536);
  CHECK(received->counters.tx_packets > 0);
  CHECK(sent->counters.rx_packets > 0);
  CHECK(sent->device == "lo");
  CHECK(received->device == "lo");
  CHECK(sent->exited);
  CHECK(received->exited);
}

TEST_CASE("ebpf backend charges UDP datagrams and their packets to the right processes",
          "[network][ebpf]") {
  auto backend = backend_or_skip();
  if (backend == nullptr) return;
  const auto [sender, receiver] = exchange(receive_udp, send_udp);

  const TrafficReading reading = read_now(*backend);
  const ProcessTraffic* sent = find_pid(reading, sender);
  const ProcessTraffic* received = find_pid(reading, receiver);
  REQUIRE(sent != nullptr);
  REQUIRE(received != nullptr);
  const uint64_t total = kDatagrams * kDatagramBytes;
  INFO("sender tx " << sent->counters.tx_bytes << " receiver rx " << received->counters.rx_bytes);
  CHECK(within_one_percent(sent->counters.tx_bytes, total));
  CHECK(within_one_percent(received->counters.rx_bytes, total));
  // One IP packet per datagram each way (1,200 bytes fit loopback's MTU), none the other way.
  CHECK(sent->counters.tx_packets == kDatagrams);
  CHECK(received->counters.rx_packets == kDatagrams);
  CHECK(sent->counters.rx_packets == 0);
  CHECK(received->counters.tx_packets == 0);
  CHECK(sent->exited);
  CHECK(received->exited);
}

TEST_CASE("ebpf backend reports an exited process once and then forgets it", "[network][ebpf]") {
  auto backend = backend_or_skip();
  if (backend == nullptr) return;
  const auto [sender, receiver] = exchange(receive_udp, send_udp);

  const TrafficReading first = read_now(*backend);
  const ProcessTraffic* reported = find_pid(first, sender);
  REQUIRE(reported != nullptr);
  CHECK(reported->exited);
  CHECK(reported->comm == find_pid(first, receiver)->comm);  // both forks of this test binary
  CHECK_FALSE(reported->comm.empty());

  const TrafficReading second = read_now(*backend);
  CHECK(find_pid(second, sender) == nullptr);
  CHECK(find_pid(second, receiver) == nullptr);
}

TEST_CASE("ebpf backend counts packets that reach no process as unattributed", "[network][ebpf]") {
  auto backend = backend_or_skip();
  if (backend == nullptr) return;
  const TrafficReading before = read_now(*backend);
  REQUIRE(before.unattributed.has_value());

  // A port nobody listens on: the datagram reaches no socket and the kernel's ICMP "port
  // unreachable" answer comes from a kernel socket, not from a process.
  Fd probe(socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0));
  const uint16_t closed_port = bind_loopback(probe.get());
  REQUIRE(closed_port != 0);
  probe.reset();
  Fd sender(socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0));
  sockaddr_in address = loopback(closed_port);
  const char byte = 'z';
  REQUIRE(sendto(sender.get(), &byte, 1, 0, as_sockaddr(address), sizeof(address)) == 1);

  const TrafficReading after = read_now(*backend);
  REQUIRE(after.unattributed.has_value());
  CHECK(after.unattributed->rx_packets > before.unattributed->rx_packets);
  CHECK(after.unattributed->tx_packets > before.unattributed->tx_packets);
  const ProcessTraffic* self = find_pid(after, getpid());
  REQUIRE(self != nullptr);
  CHECK(self->counters.tx_bytes >= 1);
  CHECK_FALSE(self->exited);
}
