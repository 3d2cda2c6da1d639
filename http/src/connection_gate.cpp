#include "connection_gate.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <openssl/crypto.h>
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
#include <stdexcept>

#include "accept_handoff.h"
#include "flightrec/common/thread_priority.h"
#include "header_block.h"

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

void watch(int epoll, int fd, uint32_t events) {
  epoll_event event{};
  event.events = events;
  event.data.fd = fd;
  if (epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event) != 0) {
    throw std::runtime_error(std::string("http gate: epoll_ctl: ") + std::strerror(errno));
  }
}

// A non-blocking socket bound to 127.0.0.1, to connect to civetweb's port; returns it with its
// source port, which names the handoff. Registered before connecting: civetweb may accept at once.
Fd wake_up_socket(uint16_t& source_port) {
  Fd sock(::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
  if (!sock) return sock;
  sockaddr_in self{};
  self.sin_family = AF_INET;
  self.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::bind(sock.get(), reinterpret_cast<const sockaddr*>(&self), sizeof self) != 0) return {};
  source_port = local_port(sock.get());
  return sock;
}

// Non-blocking: EINPROGRESS completes on its own (at once on loopback, unless civetweb's backlog
// is full, when the kernel retries); anything else and civetweb will never see it.
bool connect_to_civetweb(int sock, uint16_t civetweb_port) {
  sockaddr_in civetweb{};
  civetweb.sin_family = AF_INET;
  civetweb.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  civetweb.sin_port = htons(civetweb_port);
  return ::connect(sock, reinterpret_cast<const sockaddr*>(&civetweb), sizeof civetweb) == 0 ||
         errno == EINPROGRESS;
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

ConnectionGate::ConnectionGate(Fd listener, uint16_t civetweb_port, GateOptions options)
    : listener_(std::move(listener)),
      epoll_(epoll_create1(EPOLL_CLOEXEC)),
      stop_(eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)),
      port_(local_port(listener_.get())),
      civetweb_port_(civetweb_port),
      options_(std::move(options)),
      tls_(options_.tls != nullptr),
      peek_buffer_(options_.max_header_bytes) {
  if (!epoll_ || !stop_) {
    throw std::runtime_error(std::string("http gate: ") + std::strerror(errno));
  }
  watch(epoll_.get(), listener_.get(), EPOLLIN);
  watch(epoll_.get(), stop_.get(), EPOLLIN);
  thread_ = std::thread([this] { run(); });
}

ConnectionGate::~ConnectionGate() {
  const uint64_t one = 1;
  static_cast<void>(::write(stop_.get(), &one, sizeof one));
  thread_.join();
  drop_handoffs(this);
}

void ConnectionGate::set_tls(std::shared_ptr<const TlsContext> context) {
  const std::lock_guard lock(tls_mutex_);
  options_.tls = std::move(context);
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
      if (fd == listener_.get()) {
        accept_all();
      } else {
        check(fd);
      }
    }
    close_expired();
  }
}

int ConnectionGate::wait_ms() const {
  if (pending_.empty()) return -1;
  const auto left =
      std::chrono::ceil<std::chrono::milliseconds>(pending_.front().deadline - Clock::now());
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
      // Out of descriptors: the oldest waiting connection makes room for the new one.
      if ((errno == EMFILE || errno == ENFILE) && !pending_.empty()) {
        forget(pending_.begin());
        continue;
      }
      // Nothing of ours to close: let the descriptors civetweb holds come back first.
      if (errno == EMFILE || errno == ENFILE) std::this_thread::sleep_for(kOutOfFilesPause);
      return;  // EAGAIN: all taken
    }
    if (pending_.size() >= options_.max_pending) forget(pending_.begin());
    next.deadline = Clock::now() + options_.header_timeout;
    const int fd = next.fd.get();
    if (tls_) {
      const std::lock_guard lock(tls_mutex_);
      next.tls = std::make_unique<TlsSession>(options_.tls, fd);
    }
    // Edge-triggered: peeking leaves the bytes unread, so a level would fire without end; each
    // arrival of new bytes is an edge. A handshake may have to wait to write as well.
    watch(epoll_.get(), fd, EPOLLIN | EPOLLRDHUP | EPOLLET | (tls_ ? EPOLLOUT : 0U));
    by_fd_[fd] = pending_.insert(pending_.end(), std::move(next));
  }
}

void ConnectionGate::check(int fd) {
  if (const auto found = by_fd_.find(fd); found != by_fd_.end()) {
    if (found->second->tls) {
      check_tls(found->second);
    } else {
      check_plain(found->second);
    }
  } else if (const auto relay = relays_.find(fd); relay != relays_.end()) {
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
  if (bytes.size() >= options_.max_header_bytes || header_block_complete(bytes)) hand_off(it);
}

void ConnectionGate::check_tls(PendingList::iterator it) {
  switch (it->tls->read_header(options_.max_header_bytes)) {
    case TlsSession::Header::waiting:
      return;
    case TlsSession::Header::failed:
      forget(it);
      return;
    case TlsSession::Header::complete:
      start_relay(it);
      return;
  }
}

void ConnectionGate::hand_off(PendingList::iterator it) {
  uint16_t source_port = 0;
  Fd wake_up = wake_up_socket(source_port);
  if (!wake_up) {
    forget(it);
    return;
  }
  const int wake_up_fd = wake_up.get();
  epoll_ctl(epoll_.get(), EPOLL_CTL_DEL, it->fd.get(), nullptr);
  by_fd_.erase(it->fd.get());
  register_handoff(source_port, Handoff{.client = std::move(it->fd),
                                        .address = it->address,
                                        .address_length = it->address_length,
                                        .wake_up = std::move(wake_up),
                                        .owner = this});
  pending_.erase(it);
  if (!connect_to_civetweb(wake_up_fd, civetweb_port_)) cancel_handoff(source_port);
}

void ConnectionGate::start_relay(PendingList::iterator it) {
  uint16_t source_port = 0;
  Fd backend = wake_up_socket(source_port);
  // Each relay holds two descriptors for as long as civetweb serves it: bounded like waiting ones.
  if (!backend || relays_.size() / 2 >= options_.max_pending) {
    forget(it);
    return;
  }
  // civetweb keeps this loopback connection; the handoff only gives it the client's address.
  register_handoff(source_port, Handoff{.client = {},
                                        .address = it->address,
                                        .address_length = it->address_length,
                                        .wake_up = {},
                                        .owner = this});
  if (!connect_to_civetweb(backend.get(), civetweb_port_)) {
    cancel_handoff(source_port);
    forget(it);
    return;
  }
  watch(epoll_.get(), backend.get(), EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET);
  auto relay = std::make_shared<Relay>(Relay{
      .client = std::move(it->fd), .backend = std::move(backend), .session = std::move(it->tls)});
  by_fd_.erase(relay->client.get());
  pending_.erase(it);
  relays_[relay->client.get()] = relay;
  relays_[relay->backend.get()] = relay;
  pump(relay);  // the header, and whatever the session decrypted after it, go to civetweb now
}

void ConnectionGate::pump(const std::shared_ptr<Relay>& relay) {
  if (relay->session->relay(relay->backend.get())) return;
  // `relay` may be one of the map's own entries: nothing of it is used once erasing starts.
  const int client = relay->client.get();
  const int backend = relay->backend.get();
  relays_.erase(client);
  relays_.erase(backend);  // the last reference: both sockets close
}

void ConnectionGate::forget(PendingList::iterator it) {
  by_fd_.erase(it->fd.get());
  pending_.erase(it);  // closing the socket takes it out of the epoll set
}

void ConnectionGate::close_expired() {
  const auto now = Clock::now();
  while (!pending_.empty() && pending_.front().deadline <= now) forget(pending_.begin());
}

}  // namespace flightrec::http::detail
