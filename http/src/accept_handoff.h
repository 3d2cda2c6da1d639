#pragma once
// Handing an already-accepted connection to civetweb, which (1.15) only takes connections from
// its own accept() call on its own listener.
//
// civetweb is started on a loopback port, and before any of its threads runs (its init_context
// callback) that listening socket is replaced, under the same descriptor number, by a doorbell:
// an eventfd, which no client can connect to. civetweb's master thread polls it like a listener;
// the connection gate (connection_gate.h) queues each ready connection here and rings, and
// accept() on the doorbell, which this library defines (the executable's symbols come before
// libc's for libcivetweb.so), returns the next queued connection with its client's address.
// Every other accept() is libc's, unchanged.
//
// Why not a listener the gate connects to: civetweb serves whoever connects to its listener, in
// plain HTTP and past every check of the gate, and a loopback port is open to every local user
// and every pod on the host network (docs/SECURITY.md, "Threat model"). Refusing connections
// whose peer is not the gate's would still leave a port any local user can flood, and each
// hand-off would cost an ephemeral port; civetweb 1.15 as Debian builds it cannot listen on a
// unix socket. A doorbell leaves nothing to reach.
#include <sys/socket.h>

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>

#include "flightrec/common/fd.h"

namespace flightrec::http::detail {

struct Handoff {
  // What civetweb serves: the client's own socket (plain HTTP), or civetweb's end of the socket
  // pair the gate relays a TLS connection through.
  Fd connection;
  sockaddr_storage address{};  // the client's, for civetweb's request_info.remote_addr
  socklen_t address_length = 0;
};

class Doorbell {
 public:
  // Replaces the listening socket bound to 127.0.0.1:`port` (civetweb's, before civetweb polls
  // it) with a doorbell; at most `max_queued` connections wait in it for civetweb. Throws
  // std::runtime_error when there is no such socket or the doorbell cannot be made.
  Doorbell(uint16_t port, size_t max_queued);
  // Closes the connections civetweb never took. Only once civetweb has stopped (mg_stop).
  ~Doorbell();
  Doorbell(const Doorbell&) = delete;
  Doorbell& operator=(const Doorbell&) = delete;

  // Queues `handoff` for civetweb's next accept() and rings. False when max_queued already wait:
  // the caller keeps the connection (and closes it).
  [[nodiscard]] bool hand(Handoff& handoff);
  // Wakes civetweb's master thread with nothing to take: at mg_stop, its poll then sees the stop
  // flag at once instead of at its next 2 s timeout.
  void ring() const noexcept;

  // civetweb's accept() on `listener`: true when `listener` is a doorbell's, `handoff` then
  // holding the next queued connection, or none (EAGAIN) when the ring brought nothing.
  static bool take(int listener, Handoff& handoff);

 private:
  Fd bell_;               // our eventfd, counting rings not yet answered
  int civetweb_fd_ = -1;  // civetweb's descriptor number, now the same eventfd; civetweb closes it
  size_t max_queued_;
  std::mutex mutex_;
  std::deque<Handoff> queue_;
};

}  // namespace flightrec::http::detail
