#include "connection_gate.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/crypto.h>
#include <poll.h>
#include <pthread.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <csignal>
#include <cstring>
#include <optional>
#include <stdexcept>

#include "flightrec/common/thread_priority.h"
#include "header_block.h"
#include "request_target.h"

namespace flightrec::http::detail {
namespace {

constexpr auto kOutOfFilesPause = std::chrono::milliseconds(10);
constexpr size_t kMostPending = 4096;
constexpr size_t kShareOfFiles = 4;

bool parse_port(std::string_view text, uint16_t& port) {
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), port);
  return ec == std::errc{} && end == text.data() + text.size();
}

// The host part of civetweb's syntax as a socket address (port filled in by the caller).
bool to_address(std::string_view host, sockaddr_storage& address, socklen_t& length) {
  if (host.empty()) {  // port only: every IPv4 interface, as civetweb binds it
    auto& v4 = reinterpret_cast<sockaddr_in&>(address);
    v4.sin_family = AF_INET;
    v4.sin_addr.s_addr = htonl(INADDR_ANY);
    length = sizeof v4;
    return true;
  }
  if (host.front() == '[') {
    auto& v6 = reinterpret_cast<sockaddr_in6&>(address);
    v6.sin6_family = AF_INET6;
    length = sizeof v6;
    return inet_pton(AF_INET6, std::string(host.substr(1, host.size() - 2)).c_str(),
                     &v6.sin6_addr) == 1;
  }
  auto& v4 = reinterpret_cast<sockaddr_in&>(address);
  v4.sin_family = AF_INET;
  length = sizeof v4;
  return inet_pton(AF_INET, std::string(host).c_str(), &v4.sin_addr) == 1;
}

void set_port(sockaddr_storage& address, uint16_t port) {
  if (address.ss_family == AF_INET6) {
    reinterpret_cast<sockaddr_in6&>(address).sin6_port = htons(port);
  } else {
    reinterpret_cast<sockaddr_in&>(address).sin_port = htons(port);
  }
}

uint16_t local_port(int fd) {
  sockaddr_storage address{};
  socklen_t length = sizeof address;
  if (getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) return 0;
  return address.ss_family == AF_INET6 ? ntohs(reinterpret_cast<sockaddr_in6&>(address).sin6_port)
                                       : ntohs(reinterpret_cast<sockaddr_in&>(address).sin_port);
}

bool connection_waiting(int listener) {
  pollfd ready{.fd = listener, .events = POLLIN, .revents = 0};
  return poll(&ready, 1, 0) == 1;
}

}  // namespace

size_t pending_connections_bound() {
  rlimit files{};
  if (getrlimit(RLIMIT_NOFILE, &files) != 0 || files.rlim_cur == RLIM_INFINITY) return kMostPending;
  return std::clamp<size_t>(files.rlim_cur / kShareOfFiles, 1, kMostPending);
}

Fd open_listener(std::string_view civetweb_ports) {
  const size_t colon = civetweb_ports.rfind(':');
  const std::string_view host =
      colon == std::string_view::npos ? std::string_view{} : civetweb_ports.substr(0, colon);
  const std::string_view port_text =
      colon == std::string_view::npos ? civetweb_ports : civetweb_ports.substr(colon + 1);
  sockaddr_storage address{};
  socklen_t length = 0;
  uint16_t port = 0;
  if (!parse_port(port_text, port) || !to_address(host, address, length)) {
    errno = EINVAL;
    return {};
  }
  set_port(address, port);
  Fd sock(::socket(address.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
  const int on = 1;
  if (!sock || setsockopt(sock.get(), SOL_SOCKET, SO_REUSEADDR, &on, sizeof on) != 0) return {};
  // "[::]:port" means IPv6 only, as with civetweb; an IPv4 address is given on its own.
  if (address.ss_family == AF_INET6 &&
      setsockopt(sock.get(), IPPROTO_IPV6, IPV6_V6ONLY, &on, sizeof on) != 0) {
    return {};
  }
  if (::bind(sock.get(), reinterpret_cast<const sockaddr*>(&address), length) != 0 ||
      ::listen(sock.get(), SOMAXCONN) != 0) {
    return {};
  }
  return sock;
}

ConnectionGate::ConnectionGate(Fd listener, Doorbell& doorbell, ServerStats& stats,
                               GateOptions options)
    : listener_(std::move(listener)),
      epoll_(epoll_create1(EPOLL_CLOEXEC)),
      stop_(eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)),
      port_(local_port(listener_.get())),
      doorbell_(doorbell),
      stats_(stats),
      options_(std::move(options)),
      tls_(options_.tls != nullptr),
      peek_buffer_(options_.max_header_bytes) {
  if (!epoll_ || !stop_ || !watch(listener_.get(), EPOLLIN) || !watch(stop_.get(), EPOLLIN)) {
    throw std::runtime_error(std::string("http gate: ") + std::strerror(errno));
  }
  thread_ = std::thread([this] { run(); });
}

ConnectionGate::~ConnectionGate() {
  const uint64_t one = 1;
  static_cast<void>(::write(stop_.get(), &one, sizeof one));
  thread_.join();
}

void ConnectionGate::set_tls(std::shared_ptr<const TlsContext> context) {
  const std::lock_guard lock(tls_mutex_);
  options_.tls = std::move(context);
}

bool ConnectionGate::watch(int fd, uint32_t events) {
  epoll_event event{};
  event.events = events;
  event.data.fd = fd;
  return epoll_ctl(epoll_.get(), EPOLL_CTL_ADD, fd, &event) == 0;
}

void ConnectionGate::run() {
  pthread_setname_np(pthread_self(), "http-gate");
  static_cast<void>(priority::make_calling_thread_batch());  // like civetweb's threads
  // OpenSSL writes to a TLS client with write(): a client gone mid-answer must give this thread
  // EPIPE, not the process SIGPIPE (which, blocked, stays pending on this thread alone).
  sigset_t pipe{};
  sigemptyset(&pipe);
  sigaddset(&pipe, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe, nullptr);
  std::array<epoll_event, 64> events{};
  while (true) {
    const int count = epoll_wait(epoll_.get(), events.data(), events.size(), wait_ms());
    for (int i = 0; i < count; ++i) {
      const int fd = events[static_cast<size_t>(i)].data.fd;
      if (fd == stop_.get()) {
        // OpenSSL keeps per-thread state (its random generators) that only this call frees.
        if (tls_) OPENSSL_thread_stop();
        return;
      }
      handle(fd);
    }
    close_expired();
    if (failure_warning_due_) failure_warning_due_ = failure_warning_.flush();
  }
}

void ConnectionGate::handle(int fd) {
  // What fails for one connection (memory, in OpenSSL or in the gate's tables) closes that one:
  // nothing may escape this thread, where it would end the process.
  try {
    if (fd == listener_.get()) {
      accept_all();
    } else {
      check(fd);
    }
  } catch (const std::exception& e) {
    failed("handling a connection", e.what());
    if (const auto found = by_fd_.find(fd); found != by_fd_.end()) {
      close(found->second, GateClose::error);
    } else if (const auto relay = relay_by_fd_.find(fd); relay != relay_by_fd_.end()) {
      close(relay->second, GateClose::error);
    } else {
      stats_.count_close(GateClose::error);  // the one being accepted: closed on the way here
    }
  }
}

int ConnectionGate::wait_ms() const {
  std::optional<Clock::time_point> next;
  if (!pending_.empty()) next = pending_.front().deadline;
  if (!relays_.empty()) {
    const auto relay_due = relays_.front().active + options_.relay_timeout;
    next = next ? std::min(*next, relay_due) : relay_due;
  }
  if (failure_warning_due_) {
    next = next ? std::min(*next, *failure_warning_due_) : *failure_warning_due_;
  }
  if (!next) return -1;
  const auto left = std::chrono::ceil<std::chrono::milliseconds>(*next - Clock::now());
  return static_cast<int>(std::max<int64_t>(left.count(), 0));
}

void ConnectionGate::accept_all() {
  while (true) {
    Pending next;
    next.address_length = sizeof next.address;
    next.fd = Fd(accept4(listener_.get(), reinterpret_cast<sockaddr*>(&next.address),
                         &next.address_length, SOCK_NONBLOCK | SOCK_CLOEXEC));
    if (!next.fd) {
      if (errno == EINTR || errno == ECONNABORTED) continue;
      const bool out_of_files = errno == EMFILE || errno == ENFILE;
      // accept() says so before it looks for a connection: only a new one may make room.
      if (!out_of_files || !connection_waiting(listener_.get())) return;  // EAGAIN: all taken
      // Out of descriptors: the oldest waiting connection makes room for the new one.
      if (!pending_.empty()) {
        close(pending_.begin(), GateClose::evicted);
        continue;
      }
      // Nothing of ours to close: let the descriptors civetweb holds come back first.
      std::this_thread::sleep_for(kOutOfFilesPause);
      return;
    }
    stats_.count_accepted();
    if (pending_.size() >= options_.max_pending) close(pending_.begin(), GateClose::evicted);
    admit(std::move(next));
  }
}

void ConnectionGate::admit(Pending next) {
  const int fd = next.fd.get();
  // civetweb, and the relay, write an answer's headers and body separately: without this, Nagle
  // holds the body back for the client's delayed ACK (40 ms). Cannot fail on a TCP socket.
  const int on = 1;
  static_cast<void>(setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on));
  next.deadline = Clock::now() + options_.header_timeout;
  if (tls_) {
    const std::lock_guard lock(tls_mutex_);
    next.tls = std::make_unique<TlsSession>(options_.tls, fd);
  }
  const auto it = pending_.insert(pending_.end(), std::move(next));
  by_fd_[fd] = it;
  // Edge-triggered: peeking leaves the bytes unread, so a level would fire without end; each
  // arrival of new bytes is an edge. A handshake may have to wait to write as well.
  if (!watch(fd, EPOLLIN | EPOLLRDHUP | EPOLLET | (tls_ ? EPOLLOUT : 0U))) {
    failed("epoll_ctl", std::strerror(errno));
    close(it, GateClose::error);
  }
}

void ConnectionGate::check(int fd) {
  if (const auto found = by_fd_.find(fd); found != by_fd_.end()) {
    if (found->second->tls) {
      check_tls(found->second);
    } else {
      check_plain(found->second);
    }
  } else if (const auto relay = relay_by_fd_.find(fd); relay != relay_by_fd_.end()) {
    pump(relay->second);
  }
}

void ConnectionGate::check_plain(PendingList::iterator it) {
  const ssize_t peeked = recv(it->fd.get(), peek_buffer_.data(), peek_buffer_.size(), MSG_PEEK);
  if (peeked < 0 && (errno == EAGAIN || errno == EINTR)) return;
  if (peeked <= 0) {  // closed before sending a request, or reset
    forget(it);
    return;
  }
  const std::string_view bytes(peek_buffer_.data(), static_cast<size_t>(peeked));
  // A header over max_header_bytes goes to civetweb too, which answers it.
  if (bytes.size() < options_.max_header_bytes && !header_block_complete(bytes)) return;
  if (const auto answer = answer_without_path(bytes)) {
    // Read first: closing with the request unread would reset the connection, and the client
    // could lose the answer.
    static_cast<void>(recv(it->fd.get(), peek_buffer_.data(), bytes.size(), 0));
    static_cast<void>(send(it->fd.get(), answer->bytes.data(), answer->bytes.size(),
                           MSG_NOSIGNAL | MSG_DONTWAIT));
    stats_.count_response(kNoRoute, answer->status);
    forget(it);
    return;
  }
  hand_off(it);
}

void ConnectionGate::check_tls(PendingList::iterator it) {
  switch (it->tls->read_header(options_.max_header_bytes)) {
    case TlsSession::Header::waiting:
      return;
    case TlsSession::Header::handshake_failed:
      if (it->tls->certificate_refused())
        stats_.count_auth_failure(AuthFailure::client_certificate);
      close(it, GateClose::tls_handshake_failed);
      return;
    case TlsSession::Header::failed:
      forget(it);
      return;
    case TlsSession::Header::complete:
      if (const auto answer = answer_without_path(it->tls->header())) {
        it->tls->say(answer->bytes);
        stats_.count_response(kNoRoute, answer->status);
        forget(it);
        return;
      }
      start_relay(it);
      return;
  }
}

void ConnectionGate::hand_off(PendingList::iterator it) {
  // civetweb's from here: the gate must not see its events any more.
  if (epoll_ctl(epoll_.get(), EPOLL_CTL_DEL, it->fd.get(), nullptr) != 0) {
    failed("epoll_ctl", std::strerror(errno));
    close(it, GateClose::error);
    return;
  }
  by_fd_.erase(it->fd.get());
  Handoff handoff{.connection = std::move(it->fd),
                  .address = it->address,
                  .address_length = it->address_length};
  const bool taken = doorbell_.hand(handoff);
  pending_.erase(it);  // its socket closes with `handoff` if civetweb cannot take it
  if (!taken) stats_.count_close(GateClose::overloaded);
}

void ConnectionGate::start_relay(PendingList::iterator it) {
  std::array<int, 2> pair{};
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, pair.data()) != 0) {
    failed("socketpair", std::strerror(errno));
    close(it, GateClose::error);
    return;
  }
  // civetweb serves one end as a plain HTTP connection from the client's address.
  Fd backend(pair[0]);
  Handoff handoff{
      .connection = Fd(pair[1]), .address = it->address, .address_length = it->address_length};
  if (!watch(backend.get(), EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET)) {
    failed("epoll_ctl", std::strerror(errno));
    close(it, GateClose::error);
    return;
  }
  if (!doorbell_.hand(handoff)) {
    close(it, GateClose::overloaded);
    return;
  }
  // Each relay holds two descriptors for as long as civetweb serves it: bounded like waiting ones.
  if (relays_.size() >= options_.max_pending) close(relays_.begin(), GateClose::relay_evicted);
  const int client = it->fd.get();
  relays_.push_back(Relay{.client = std::move(it->fd),
                          .backend = std::move(backend),
                          .session = std::move(it->tls),
                          .active = Clock::now()});
  by_fd_.erase(client);
  pending_.erase(it);
  const auto relay = std::prev(relays_.end());
  relay_by_fd_[client] = relay;
  relay_by_fd_[relay->backend.get()] = relay;
  pump(relay);  // the header, and whatever the session decrypted after it, go to civetweb now
}

void ConnectionGate::pump(RelayList::iterator it) {
  switch (it->session->relay(it->backend.get())) {
    case TlsSession::Flow::over:
      end(it);
      return;
    case TlsSession::Flow::moved:
      it->active = Clock::now();
      relays_.splice(relays_.end(), relays_, it);
      return;
    case TlsSession::Flow::still:
      return;
  }
}

void ConnectionGate::forget(PendingList::iterator it) {
  by_fd_.erase(it->fd.get());
  pending_.erase(it);  // closing the socket takes it out of the epoll set
}

void ConnectionGate::end(RelayList::iterator it) {
  relay_by_fd_.erase(it->client.get());
  relay_by_fd_.erase(it->backend.get());
  relays_.erase(it);  // both sockets close
}

void ConnectionGate::close(PendingList::iterator it, GateClose reason) {
  stats_.count_close(reason);
  forget(it);
}

void ConnectionGate::close(RelayList::iterator it, GateClose reason) {
  stats_.count_close(reason);
  // A reset: the client stopped reading, or makes room for others, and the kernel must not keep
  // the answer it still holds for it, retrying for minutes, as after an orderly close.
  const linger abort{.l_onoff = 1, .l_linger = 0};
  static_cast<void>(setsockopt(it->client.get(), SOL_SOCKET, SO_LINGER, &abort, sizeof abort));
  end(it);
}

void ConnectionGate::close_expired() {
  const auto now = Clock::now();
  while (!pending_.empty() && pending_.front().deadline <= now) {
    close(pending_.begin(), GateClose::header_timeout);
  }
  // Only a relay waiting on its client is the gate's to time out. One waiting on civetweb (for
  // its answer, or to read the body) is bounded by civetweb's own request timeout; its time
  // starts again.
  while (!relays_.empty() && relays_.front().active + options_.relay_timeout <= now) {
    if (relays_.front().session->waiting_for_client()) {
      close(relays_.begin(), GateClose::relay_timeout);
    } else {
      relays_.front().active = now;
      relays_.splice(relays_.end(), relays_, relays_.begin());
    }
  }
}

void ConnectionGate::failed(std::string_view what, std::string_view error) {
  std::string failure(what);
  failure += ": ";
  failure += error;
  failure_warning_.note(failure);
  failure_warning_due_ = failure_warning_.flush();  // when a count left now falls due
}

}  // namespace flightrec::http::detail
