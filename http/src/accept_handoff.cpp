#include "accept_handoff.h"

#include <fcntl.h>
#include <netinet/in.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <unordered_map>

#include "connection_table.h"

namespace flightrec::http::detail {
namespace {

struct Registry {
  std::mutex mutex;
  std::unordered_map<int, Doorbell*> by_fd;  // civetweb's descriptor number → its doorbell
  std::atomic<size_t> size{0};  // lets every other accept() skip the lock when there is none
};

Registry& registry() {
  static Registry instance;
  return instance;
}

bool is_listener_on(int fd, uint16_t port) {
  int accepting = 0;
  socklen_t length = sizeof accepting;
  if (getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &accepting, &length) != 0 || accepting == 0) {
    return false;
  }
  sockaddr_in address{};
  length = sizeof address;
  return getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0 &&
         address.sin_family == AF_INET && address.sin_addr.s_addr == htonl(INADDR_LOOPBACK) &&
         ntohs(address.sin_port) == port;
}

// civetweb keeps its listener's descriptor to itself: it is the one listening on `port`.
int find_listener(uint16_t port) {
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator("/proc/self/fd", error)) {
    const std::string name = entry.path().filename().string();
    int fd = -1;
    const auto [end, ec] = std::from_chars(name.data(), name.data() + name.size(), fd);
    if (ec == std::errc{} && end == name.data() + name.size() && is_listener_on(fd, port)) {
      return fd;
    }
  }
  return -1;
}

// accept()'s contract for the address: copy what fits, report the full length.
void copy_address(const sockaddr_storage& from, socklen_t length, sockaddr* to,
                  socklen_t* to_length) {
  if (to == nullptr || to_length == nullptr) return;
  std::memcpy(to, &from, std::min(*to_length, length));
  *to_length = length;
}

}  // namespace

Doorbell::Doorbell(uint16_t port, size_t max_queued)
    : bell_(eventfd(0, EFD_SEMAPHORE | EFD_NONBLOCK | EFD_CLOEXEC)), max_queued_(max_queued) {
  if (!bell_) throw std::runtime_error(std::string("http: eventfd: ") + std::strerror(errno));
  const int listener = find_listener(port);
  if (listener < 0) {
    throw std::runtime_error("http: civetweb's listener on 127.0.0.1:" + std::to_string(port) +
                             " is not among this process's descriptors");
  }
  // One atomic step: the socket closes, and the number is the doorbell before civetweb polls it.
  if (dup3(bell_.get(), listener, O_CLOEXEC) < 0) {
    throw std::runtime_error(std::string("http: dup3: ") + std::strerror(errno));
  }
  civetweb_fd_ = listener;
  auto& reg = registry();
  const std::lock_guard lock(reg.mutex);
  reg.by_fd[civetweb_fd_] = this;
  reg.size.store(reg.by_fd.size(), std::memory_order_release);
}

Doorbell::~Doorbell() {
  auto& reg = registry();
  const std::lock_guard lock(reg.mutex);
  reg.by_fd.erase(civetweb_fd_);
  reg.size.store(reg.by_fd.size(), std::memory_order_release);
}

bool Doorbell::hand(Handoff& handoff) {
  {
    const std::lock_guard lock(mutex_);
    if (queue_.size() >= max_queued_) return false;
    queue_.push_back(std::move(handoff));
  }
  ring();
  return true;
}

void Doorbell::ring() const noexcept {
  const uint64_t one = 1;
  // Cannot fail short of 2^64 - 1 unanswered rings.
  static_cast<void>(::write(bell_.get(), &one, sizeof one));
}

bool Doorbell::take(int listener, Handoff& handoff) {
  auto& reg = registry();
  if (reg.size.load(std::memory_order_acquire) == 0) return false;
  const std::lock_guard lock(reg.mutex);
  const auto found = reg.by_fd.find(listener);
  if (found == reg.by_fd.end()) return false;
  // Between civetweb's close of the doorbell at its stop and ~Doorbell, the number may already
  // be someone's socket again: that is accepted as any socket is.
  int type = 0;
  socklen_t length = sizeof type;
  if (getsockopt(listener, SOL_SOCKET, SO_TYPE, &type, &length) == 0) return false;
  Doorbell& bell = *found->second;
  uint64_t ring = 0;
  if (::read(bell.bell_.get(), &ring, sizeof ring) != sizeof ring) return true;  // none left
  const std::lock_guard queue_lock(bell.mutex_);
  // A ring without a connection (ring()) is answered with none; a connection queued after its
  // ring was counted is taken by an earlier ring, and its own ring then finds none.
  if (!bell.queue_.empty()) {
    handoff = std::move(bell.queue_.front());
    bell.queue_.pop_front();
  }
  return true;
}

}  // namespace flightrec::http::detail

// Interposes libc's accept() (see the header): civetweb's master thread calls it on its listener.
// libc names the parameters with reserved identifiers, which ours cannot repeat.
// NOLINTNEXTLINE(readability-inconsistent-declaration-parameter-name)
extern "C" int accept(int listener, sockaddr* address, socklen_t* address_length) {
  flightrec::http::detail::Handoff handoff;
  if (!flightrec::http::detail::Doorbell::take(listener, handoff)) {
    return ::accept4(listener, address, address_length, 0);
  }
  if (!handoff.connection) {
    errno = EAGAIN;  // civetweb polls again
    return -1;
  }
  flightrec::http::detail::copy_address(handoff.address, handoff.address_length, address,
                                        address_length);
  flightrec::http::detail::connection_table().add(handoff.address, handoff.connection.get());
  return handoff.connection.release();
}
