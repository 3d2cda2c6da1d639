#pragma once
// One client's TLS connection, terminated by the connection gate (connection_gate.h) on its epoll
// thread: the handshake and the first request's header are read here, costing no civetweb worker,
// and afterwards every byte is relayed between the client (encrypted) and a plain loopback
// connection to civetweb. All sockets are non-blocking; each call does what can be done now and
// returns, and the gate calls again when either socket is ready (edge-triggered: every call goes
// on until the sockets would block, so no readiness is left unconsumed).
#include <openssl/ssl.h>

#include <memory>
#include <string>
#include <string_view>

#include "tls_context.h"

namespace flightrec::http::detail {

class TlsSession {
 public:
  // `client_fd` stays the caller's. The session keeps `context` while it lives.
  TlsSession(std::shared_ptr<const TlsContext> context, int client_fd);

  enum class Header {
    waiting,           // handshake or header still arriving
    complete,          // the header block, or max_header_bytes of it, has been decrypted
    handshake_failed,  // refused (certificate_refused() says whether for the client's
                       // certificate), closed or reset during the handshake: close it
    failed,            // closed or reset before the header was complete: close it
  };
  // Completes the handshake and decrypts until the first request's header block is complete.
  [[nodiscard]] Header read_header(size_t max_header_bytes);
  // What read_header decrypted: the header block, and whatever followed it.
  [[nodiscard]] std::string_view header() const noexcept { return to_backend_; }
  // Sends `answer` and ends the session (close_notify), best effort: a session just past its
  // handshake has the room for a short answer in its socket, and the caller closes it next.
  void say(std::string_view answer);
  // Whether the handshake failed on the client's certificate: none where one is required, one
  // that does not verify, or one without an allowed SAN.
  [[nodiscard]] bool certificate_refused() const noexcept { return certificate_refused_; }

  enum class Flow {
    moved,  // bytes moved, and the connection goes on
    still,  // nothing could move now; the connection goes on
    over,   // civetweb closed it and its last bytes went out, or either side failed
  };
  // Moves bytes between the client and `backend_fd` (civetweb's connection) both ways.
  [[nodiscard]] Flow relay(int backend_fd);
  // Whether answer bytes wait for the client to read them: a relay that is still waits on the
  // client, not on civetweb.
  [[nodiscard]] bool waiting_for_client() const noexcept { return !to_client_.empty(); }

 private:
  enum class Read { data, would_block, end, failed };
  Read read_client(size_t room);
  [[nodiscard]] bool write_client(bool& progress);
  [[nodiscard]] bool move_to_backend(int backend_fd, bool& progress);
  [[nodiscard]] bool move_from_backend(int backend_fd, bool& progress);

  struct FreeSsl {
    void operator()(SSL* ssl) const noexcept { SSL_free(ssl); }
  };
  std::shared_ptr<const TlsContext> context_;  // before ssl_: freed after it
  std::unique_ptr<SSL, FreeSsl> ssl_;
  std::string to_backend_;  // decrypted from the client, not yet written to civetweb
  std::string to_client_;   // civetweb's answer, not yet encrypted to the client
  bool client_ended_ = false;
  bool backend_ended_ = false;
  bool backend_write_closed_ = false;
  bool certificate_refused_ = false;
};

}  // namespace flightrec::http::detail
