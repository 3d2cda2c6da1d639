#include "tls_session.h"

#include <openssl/err.h>
#include <sys/socket.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <climits>
#include <utility>

#include "header_block.h"

namespace flightrec::http::detail {
namespace {

// Bytes held each way per connection: one TLS record's worth. A side that does not take its bytes
// (a client that does not read, a busy civetweb) stops the other side's reads at this bound, so a
// slow reader costs the gate at most this much memory and holds civetweb's writes, as a plain
// connection's full socket buffer would.
constexpr size_t kBufferBytes = 16384;

bool would_block(int ssl_error) {
  return ssl_error == SSL_ERROR_WANT_READ || ssl_error == SSL_ERROR_WANT_WRITE;
}

// The handshake failed on the client's certificate: the verification (chain, SAN allow-list)
// said no, or the client sent none where one is required.
bool refused_certificate(const SSL* ssl) {
  if (SSL_get_verify_result(ssl) != X509_V_OK) return true;
  const unsigned long error = ERR_peek_error();  // NOLINT(google-runtime-int): OpenSSL's type
  return ERR_GET_LIB(error) == ERR_LIB_SSL &&
         (ERR_GET_REASON(error) == SSL_R_CERTIFICATE_VERIFY_FAILED ||
          ERR_GET_REASON(error) == SSL_R_PEER_DID_NOT_RETURN_A_CERTIFICATE);
}

}  // namespace

TlsSession::TlsSession(std::shared_ptr<const TlsContext> context, int client_fd)
    : context_(std::move(context)), ssl_(SSL_new(context_->ctx.get())) {
  if (ssl_) {
    SSL_set_fd(ssl_.get(), client_fd);
    SSL_set_accept_state(ssl_.get());
  }
}

TlsSession::Header TlsSession::read_header(size_t max_header_bytes) {
  if (!ssl_) return Header::failed;
  ERR_clear_error();  // SSL_get_error reads the thread's queue: a stale entry would fail us
  if (SSL_is_init_finished(ssl_.get()) == 0) {
    const int done = SSL_do_handshake(ssl_.get());
    if (done != 1) {
      const int error = SSL_get_error(ssl_.get(), done);
      if (would_block(error)) return Header::waiting;
      // Closed before its first byte (a TCP probe): no handshake was tried.
      if (BIO_number_read(SSL_get_rbio(ssl_.get())) == 0) return Header::failed;
      certificate_refused_ = refused_certificate(ssl_.get());
      return Header::handshake_failed;
    }
  }
  while (!header_block_complete(to_backend_) && to_backend_.size() < max_header_bytes) {
    switch (read_client(max_header_bytes - to_backend_.size())) {
      case Read::data:
        break;
      case Read::would_block:
        return Header::waiting;
      case Read::end:
      case Read::failed:
        return Header::failed;  // nothing was asked: nothing to answer
    }
  }
  return Header::complete;
}

void TlsSession::say(std::string_view answer) {
  ERR_clear_error();
  if (SSL_write(ssl_.get(), answer.data(), static_cast<int>(answer.size())) > 0) {
    SSL_shutdown(ssl_.get());
  }
}

TlsSession::Read TlsSession::read_client(size_t room) {
  std::array<char, kBufferBytes> buffer{};
  ERR_clear_error();
  const int n =
      SSL_read(ssl_.get(), buffer.data(), static_cast<int>(std::min(room, buffer.size())));
  if (n > 0) {
    to_backend_.append(buffer.data(), static_cast<size_t>(n));
    return Read::data;
  }
  const int error = SSL_get_error(ssl_.get(), n);
  if (would_block(error)) return Read::would_block;
  // close_notify, or (SSL_OP_IGNORE_UNEXPECTED_EOF) the socket's end: the client sends no more
  // but may still read the answer.
  return error == SSL_ERROR_ZERO_RETURN ? Read::end : Read::failed;
}

bool TlsSession::write_client(bool& progress) {
  while (!to_client_.empty()) {
    ERR_clear_error();
    const int n = SSL_write(ssl_.get(), to_client_.data(),
                            static_cast<int>(std::min<size_t>(to_client_.size(), INT_MAX)));
    if (n <= 0) return would_block(SSL_get_error(ssl_.get(), n));
    to_client_.erase(0, static_cast<size_t>(n));
    progress = true;
  }
  return true;
}

bool TlsSession::move_to_backend(int backend_fd, bool& progress) {
  while (!to_backend_.empty()) {
    const ssize_t n = ::send(backend_fd, to_backend_.data(), to_backend_.size(), MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EPIPE || errno == ECONNRESET)) {
      // civetweb answered and closed without reading the rest (a 413, a refused body): what the
      // client still sends has nowhere to go, but the answer must still reach it.
      to_backend_.clear();
      client_ended_ = backend_write_closed_ = true;
      return true;
    }
    if (n < 0) return errno == EAGAIN;
    to_backend_.erase(0, static_cast<size_t>(n));
    progress = true;
  }
  return true;
}

bool TlsSession::move_from_backend(int backend_fd, bool& progress) {
  std::array<char, kBufferBytes> buffer{};
  while (!backend_ended_ && to_client_.size() < kBufferBytes) {
    const ssize_t n = ::recv(backend_fd, buffer.data(), kBufferBytes - to_client_.size(), 0);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return errno == EAGAIN;
    if (n == 0) backend_ended_ = true;
    to_client_.append(buffer.data(), static_cast<size_t>(n));
    progress = true;
  }
  return true;
}

TlsSession::Flow TlsSession::relay(int backend_fd) {
  bool moved = false;
  for (bool progress = true; progress;) {
    progress = false;
    while (!client_ended_ && to_backend_.size() < kBufferBytes) {
      const Read read = read_client(kBufferBytes - to_backend_.size());
      if (read == Read::failed) return Flow::over;
      if (read == Read::would_block) break;
      client_ended_ = read == Read::end;
      progress = true;
    }
    if (!move_to_backend(backend_fd, progress)) return Flow::over;
    if (client_ended_ && to_backend_.empty() && !backend_write_closed_) {
      ::shutdown(backend_fd, SHUT_WR);  // civetweb reads the end and finishes
      backend_write_closed_ = true;
    }
    if (!move_from_backend(backend_fd, progress) || !write_client(progress)) return Flow::over;
    moved = moved || progress;
  }
  if (backend_ended_ && to_client_.empty()) {
    ERR_clear_error();
    SSL_shutdown(ssl_.get());  // close_notify, best effort: the socket closes next
    return Flow::over;
  }
  return moved ? Flow::moved : Flow::still;
}

}  // namespace flightrec::http::detail
