#pragma once
// The connection gate: the server's real listener. civetweb ties a worker thread to a connection
// from accept to close, so a few hundred clients that send nothing, or send their header a byte at
// a time, hold every worker and scrapes queue behind them. The gate accepts every connection on
// one epoll thread and holds it there, costing no worker, until its request header block has
// arrived, then hands it to civetweb through the doorbell (accept_handoff.h), the only way in.
// - Plain HTTP: bytes are only peeked, never read, so civetweb sees the connection from its first
//   byte and serves it on the client's own socket.
// - TLS: the header is encrypted, so the gate terminates TLS itself (tls_session.h). It does the
//   handshake and decrypts the header here, then relays the connection, decrypted, over a socket
//   pair whose other end civetweb serves as plain HTTP. civetweb never sees TLS.
// A connection not ready within the header timeout (handshake included) is closed; when
// max_pending wait, the oldest is closed to make room, so a new client always gets in. A relay
// whose client takes none of its answer for the relay timeout is closed; when max_pending are
// relayed, the least recently active is closed to make room. A system call that fails for one
// connection closes that connection, is counted and logged (a LimitedWarning: at most one line
// per 10 s, counting the failures it stands for), and the gate goes on. Every close is counted by
// why (server_stats.h).
#include <sys/socket.h>

#include <chrono>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <vector>

#include "accept_handoff.h"
#include "flightrec/common/fd.h"
#include "flightrec/common/limited_warning.h"
#include "flightrec/http/server_stats.h"
#include "tls_session.h"

namespace flightrec::http::detail {

struct GateOptions {
  std::chrono::milliseconds header_timeout{10000};
  // How long a TLS relay may go without the client taking any of the answer waiting for it.
  std::chrono::milliseconds relay_timeout{10000};
  size_t max_header_bytes = 16384;  // civetweb's max_request_size: it refuses anything larger
  size_t max_pending = 4096;  // connections waiting for their header, at most; as many relayed
  std::shared_ptr<const TlsContext> tls;  // terminate TLS with this context; null: plain HTTP
};

// A quarter of the descriptors this process may open (RLIMIT_NOFILE), at most 4096: held
// connections must not starve the sampler, the process tier, incident writes or civetweb.
[[nodiscard]] size_t pending_connections_bound();

// A listening TCP socket on civetweb_listening_ports()'s form of an address ("host:port",
// "[v6]:port" or "port" for every IPv4 interface); invalid with errno set when it cannot listen.
Fd open_listener(std::string_view civetweb_ports);

class ConnectionGate {
 public:
  // Serves `listener`, handing ready connections to civetweb through `doorbell`, counting into
  // `stats`; both must outlive the gate.
  ConnectionGate(Fd listener, Doorbell& doorbell, ServerStats& stats, GateOptions options);
  ~ConnectionGate();
  ConnectionGate(const ConnectionGate&) = delete;
  ConnectionGate& operator=(const ConnectionGate&) = delete;

  [[nodiscard]] uint16_t port() const noexcept { return port_; }

  // New TLS connections are handshaken with `context` from now on (a reload); those begun keep
  // theirs. Only for a gate that terminates TLS.
  void set_tls(std::shared_ptr<const TlsContext> context);

 private:
  using Clock = std::chrono::steady_clock;
  struct Pending {
    Fd fd;
    sockaddr_storage address{};
    socklen_t address_length = 0;
    Clock::time_point deadline;
    std::unique_ptr<TlsSession> tls;
  };
  using PendingList = std::list<Pending>;  // in accept order, hence in deadline order
  // A TLS connection past its header: the client and the gate's end of civetweb's socket pair.
  struct Relay {
    Fd client;
    Fd backend;
    std::unique_ptr<TlsSession> session;
    Clock::time_point active;  // when bytes last moved (or the relay was last found waiting on
                               // civetweb, which bounds its own work)
  };
  using RelayList = std::list<Relay>;  // least recently active first

  void run();
  void handle(int fd);
  void accept_all();
  void admit(Pending next);
  void check(int fd);
  void check_plain(PendingList::iterator it);
  void check_tls(PendingList::iterator it);
  void hand_off(PendingList::iterator it);
  void start_relay(PendingList::iterator it);
  void pump(RelayList::iterator it);
  void forget(PendingList::iterator it);  // a connection the client ended, or civetweb's now
  void end(RelayList::iterator it);       // a relay civetweb or the client ended
  void close(PendingList::iterator it, GateClose reason);
  void close(RelayList::iterator it, GateClose reason);
  void close_expired();
  // Logs that `what` failed for one connection, which the caller closes (GateClose::error), through
  // failure_warning_.
  void failed(std::string_view what, std::string_view error);
  [[nodiscard]] bool watch(int fd, uint32_t events);
  [[nodiscard]] int wait_ms() const;

  Fd listener_;
  Fd epoll_;
  Fd stop_;  // eventfd
  uint16_t port_ = 0;
  Doorbell& doorbell_;
  ServerStats& stats_;
  GateOptions options_;
  const bool tls_;        // whether the gate terminates TLS, fixed at start
  std::mutex tls_mutex_;  // options_.tls, which set_tls replaces
  PendingList pending_;
  std::unordered_map<int, PendingList::iterator> by_fd_;
  RelayList relays_;
  std::unordered_map<int, RelayList::iterator> relay_by_fd_;  // under both of each relay's fds
  std::vector<char> peek_buffer_;
  // A flood that makes every connection fail must not flood the log as well. The line for the
  // failures it counted is written by the next failure or by run() once due, whichever is first,
  // and at the latest when the gate ends.
  log::LimitedWarning failure_warning_{"http gate: closed a connection after a failure",
                                       log::LimitedWarning::kDefaultInterval, log::Level::error};
  std::optional<Clock::time_point> failure_warning_due_;
  std::thread thread_;
};

}  // namespace flightrec::http::detail
