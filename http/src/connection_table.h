#pragma once
// Which socket civetweb serves each client on. civetweb 1.15 keeps a connection's descriptor to
// itself, and a worker blocked reading a request body cannot be reached through its API: a body
// sent a byte at a time keeps every read alive, however long the whole takes. The doorbell
// (accept_handoff.h) records each connection it hands to civetweb here, under the client's
// address and port as civetweb's request_info spells them, and civetweb's connection_close
// callback, called before it closes the socket, takes it out; so a descriptor found here is the
// request's own until that callback. body_deadline.h ends a late body's reads through it.
#include <sys/socket.h>

#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

namespace flightrec::http::detail {

class ConnectionTable {
 public:
  void add(const sockaddr_storage& client, int fd);
  void remove(std::string_view address, int port);
  // The descriptor serving the client at `address` (request_info's remote_addr) and `port`; -1
  // when none is known.
  [[nodiscard]] int find(std::string_view address, int port) const;

 private:
  mutable std::mutex mutex_;
  std::unordered_map<std::string, int> fds_;  // by "address port"
};

// The process's one table: civetweb's accept() and callbacks reach no object of ours.
ConnectionTable& connection_table();

}  // namespace flightrec::http::detail
