#include "accept_handoff.h"

#include <netinet/in.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>
#include <optional>
#include <unordered_map>

namespace flightrec::http::detail {
namespace {

struct Registry {
  std::mutex mutex;
  std::unordered_map<uint16_t, Handoff> by_port;
  std::atomic<size_t> size{0};  // lets accept() skip the lock when nothing is registered
};

Registry& registry() {
  static Registry instance;
  return instance;
}

// The wake-up connections come from 127.0.0.1; their port names the registered client.
std::optional<uint16_t> loopback_v4_port(const sockaddr_storage& peer) {
  if (peer.ss_family != AF_INET) return std::nullopt;
  sockaddr_in v4{};
  std::memcpy(&v4, &peer, sizeof v4);
  if (v4.sin_addr.s_addr != htonl(INADDR_LOOPBACK)) return std::nullopt;
  return ntohs(v4.sin_port);
}

std::optional<Handoff> take(const sockaddr_storage& peer) {
  auto& reg = registry();
  if (reg.size.load(std::memory_order_acquire) == 0) return std::nullopt;
  const auto port = loopback_v4_port(peer);
  if (!port) return std::nullopt;
  const std::lock_guard lock(reg.mutex);
  const auto it = reg.by_port.find(*port);
  if (it == reg.by_port.end()) return std::nullopt;
  Handoff handoff = std::move(it->second);
  reg.by_port.erase(it);
  reg.size.store(reg.by_port.size(), std::memory_order_release);
  return handoff;
}

// accept()'s contract for the address: copy what fits, report the full length.
void copy_address(const sockaddr_storage& from, socklen_t length, sockaddr* to,
                  socklen_t* to_length) {
  if (to == nullptr || to_length == nullptr) return;
  std::memcpy(to, &from, std::min(*to_length, length));
  *to_length = length;
}

}  // namespace

void register_handoff(uint16_t wake_up_port, Handoff handoff) {
  auto& reg = registry();
  const std::lock_guard lock(reg.mutex);
  reg.by_port.insert_or_assign(wake_up_port, std::move(handoff));
  reg.size.store(reg.by_port.size(), std::memory_order_release);
}

void cancel_handoff(uint16_t wake_up_port) {
  auto& reg = registry();
  const std::lock_guard lock(reg.mutex);
  reg.by_port.erase(wake_up_port);
  reg.size.store(reg.by_port.size(), std::memory_order_release);
}

void drop_handoffs(const void* owner) {
  auto& reg = registry();
  const std::lock_guard lock(reg.mutex);
  std::erase_if(reg.by_port, [owner](const auto& entry) { return entry.second.owner == owner; });
  reg.size.store(reg.by_port.size(), std::memory_order_release);
}

}  // namespace flightrec::http::detail

// Interposes libc's accept() (see the header): civetweb's master thread calls it on its listener.
// libc names the parameters with reserved identifiers, which ours cannot repeat.
// NOLINTNEXTLINE(readability-inconsistent-declaration-parameter-name)
extern "C" int accept(int listener, sockaddr* address, socklen_t* address_length) {
  sockaddr_storage peer{};
  socklen_t peer_length = sizeof peer;
  const int fd = ::accept4(listener, reinterpret_cast<sockaddr*>(&peer), &peer_length, 0);
  if (fd < 0) return fd;
  auto handoff = flightrec::http::detail::take(peer);
  if (!handoff) {
    flightrec::http::detail::copy_address(peer, peer_length, address, address_length);
    return fd;
  }
  flightrec::http::detail::copy_address(handoff->address, handoff->address_length, address,
                                        address_length);
  if (!handoff->client) return fd;  // a relayed connection: civetweb serves the loopback one
  ::close(fd);  // the wake-up connection's far end; ours closes with the handoff
  return handoff->client.release();
}
