#pragma once
// The connection gate: the server's real listener. civetweb ties a worker thread to a connection
// from accept to close, so a few hundred clients that send nothing, or send their header a byte at
// a time, hold every worker and scrapes queue behind them. The gate accepts every connection on
// one epoll thread and holds it there, costing no worker, until its request header block has
// arrived (with TLS, whose header is encrypted: the client's first handshake record), then hands
// it to civetweb (accept_handoff.h). Bytes are only peeked, never read, so civetweb (and its TLS)
// sees the connection from its first byte. A connection not ready within the header timeout is
// closed; when max_pending wait, the oldest is closed to make room, so a new client always gets in.
#include <sys/socket.h>

#include <chrono>
#include <cstdint>
#include <list>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <vector>

#include "flightrec/common/fd.h"

namespace flightrec::http::detail {

struct GateOptions {
  std::chrono::milliseconds header_timeout{10000};
  size_t max_header_bytes = 16384;  // civetweb's max_request_size: it refuses anything larger
  size_t max_pending = 4096;        // connections waiting for their header, at most
  bool tls = false;
};

// A quarter of the descriptors this process may open (RLIMIT_NOFILE), at most 4096: held
// connections must not starve the sampler, the process tier, incident writes or civetweb.
[[nodiscard]] size_t pending_connections_bound();

// A listening TCP socket on civetweb_listening_ports()'s form of an address ("host:port",
// "[v6]:port" or "port" for every IPv4 interface); invalid with errno set when it cannot listen.
Fd open_listener(std::string_view civetweb_ports);

class ConnectionGate {
 public:
  // Serves `listener`, handing ready connections to civetweb's loopback port `civetweb_port`.
  ConnectionGate(Fd listener, uint16_t civetweb_port, GateOptions options);
  ~ConnectionGate();
  ConnectionGate(const ConnectionGate&) = delete;
  ConnectionGate& operator=(const ConnectionGate&) = delete;

  [[nodiscard]] uint16_t port() const noexcept { return port_; }

 private:
  using Clock = std::chrono::steady_clock;
  struct Pending {
    Fd fd;
    sockaddr_storage address{};
    socklen_t address_length = 0;
    Clock::time_point deadline;
  };
  using PendingList = std::list<Pending>;  // in accept order, hence in deadline order

  void run();
  void accept_all();
  void check(int fd);
  [[nodiscard]] bool ready(std::string_view peeked) const;
  void hand_off(PendingList::iterator it);
  void forget(PendingList::iterator it);
  void close_expired();
  [[nodiscard]] int wait_ms() const;

  Fd listener_;
  Fd epoll_;
  Fd stop_;  // eventfd
  uint16_t port_ = 0;
  uint16_t civetweb_port_;
  GateOptions options_;
  PendingList pending_;
  std::unordered_map<int, PendingList::iterator> by_fd_;
  std::vector<char> peek_buffer_;
  std::thread thread_;
};

}  // namespace flightrec::http::detail
