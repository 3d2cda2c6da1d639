#pragma once
// Handing an already-accepted connection to civetweb, which (1.15) only takes connections from
// its own accept() call. The connection gate (connection_gate.h) registers the client socket
// under a wake-up connection it opens to civetweb's private loopback listener; this library
// defines accept(), which civetweb's calls resolve to ahead of libc's (the executable's symbols
// come first), and which returns the registered client in place of its wake-up connection. A
// connection the gate relays (TLS) registers no socket: civetweb serves the wake-up connection
// itself, and only the client's address replaces the loopback one. Any other connection, and
// every other caller, gets libc's accept unchanged.
#include <sys/socket.h>

#include <cstdint>

#include "flightrec/common/fd.h"

namespace flightrec::http::detail {

struct Handoff {
  Fd client;                   // none for a relayed connection
  sockaddr_storage address{};  // the client's, for civetweb's request_info.remote_addr
  socklen_t address_length = 0;
  Fd wake_up;  // our end of the connection civetweb accepts in the client's place; a relay keeps
               // its own
  const void* owner = nullptr;
};

// The next accept() whose peer is the loopback port `wake_up_port` returns `handoff.client`.
void register_handoff(uint16_t wake_up_port, Handoff handoff);

// Takes back (and closes) the handoff under `wake_up_port`, whose wake-up never connected.
void cancel_handoff(uint16_t wake_up_port);

// Closes the registered connections of `owner` that civetweb never accepted (at shutdown).
void drop_handoffs(const void* owner);

}  // namespace flightrec::http::detail
