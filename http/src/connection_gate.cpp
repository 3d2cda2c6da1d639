#include "connection_gate.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <stdexcept>

#include "accept_handoff.h"
#include "flightrec/common/thread_priority.h"

namespace flightrec::http::detail {
namespace {

constexpr unsigned char kTlsHandshake = 0x16;
constexpr size_t kTlsRecordHeader = 5;
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

// civetweb's own test for the end of a header block (get_http_header_len): "\n\n" or "\n\r\n".
bool header_complete(std::string_view bytes) {
  return bytes.find("\n\n") != std::string_view::npos ||
         bytes.find("\n\r\n") != std::string_view::npos;
}

// Connects a non-blocking socket from 127.0.0.1 to civetweb's port; returns it with its source
// port, which names the handoff. Registered before connecting: civetweb may accept at once.
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
      options_(options),
      peek_buffer_(options.max_header_bytes) {
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

void ConnectionGate::run() {
  pthread_setname_np(pthread_self(), "http-gate");
  static_cast<void>(priority::make_calling_thread_batch());  // like civetweb's threads
  std::array<epoll_event, 64> events{};
  while (true) {
    const int count = epoll_wait(epoll_.get(), events.data(), events.size(), wait_ms());
    for (int i = 0; i < count; ++i) {
      const int fd = events[static_cast<size_t>(i)].data.fd;
      if (fd == stop_.get()) return;
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
    // Edge-triggered: peeking leaves the bytes unread, so a level would fire without end; each
    // arrival of new bytes is an edge.
    watch(epoll_.get(), fd, EPOLLIN | EPOLLRDHUP | EPOLLET);
    by_fd_[fd] = pending_.insert(pending_.end(), std::move(next));
  }
}

bool ConnectionGate::ready(std::string_view peeked) const {
  if (peeked.size() >= options_.max_header_bytes) return true;  // civetweb answers it
  if (!options_.tls) return header_complete(peeked);
  // Not a TLS handshake: civetweb's handshake fails it at once.
  if (static_cast<unsigned char>(peeked.front()) != kTlsHandshake) return true;
  if (peeked.size() < kTlsRecordHeader) return false;
  const size_t record = (static_cast<size_t>(static_cast<unsigned char>(peeked[3])) << 8) |
                        static_cast<unsigned char>(peeked[4]);
  return peeked.size() >= kTlsRecordHeader + record;
}

void ConnectionGate::check(int fd) {
  const auto found = by_fd_.find(fd);
  if (found == by_fd_.end()) return;
  const ssize_t peeked = recv(fd, peek_buffer_.data(), peek_buffer_.size(), MSG_PEEK);
  if (peeked < 0 && (errno == EAGAIN || errno == EINTR)) return;
  if (peeked <= 0) {  // closed before sending a request, or reset
    forget(found->second);
    return;
  }
  if (ready(std::string_view(peek_buffer_.data(), static_cast<size_t>(peeked)))) {
    hand_off(found->second);
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
  sockaddr_in civetweb{};
  civetweb.sin_family = AF_INET;
  civetweb.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  civetweb.sin_port = htons(civetweb_port_);
  // Non-blocking: EINPROGRESS completes on its own (at once on loopback, unless civetweb's
  // backlog is full, when the kernel retries); anything else and civetweb will never see it.
  if (::connect(wake_up_fd, reinterpret_cast<const sockaddr*>(&civetweb), sizeof civetweb) != 0 &&
      errno != EINPROGRESS) {
    cancel_handoff(source_port);
  }
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
