#include "connection_table.h"

#include <arpa/inet.h>
#include <netinet/in.h>

#include <array>

namespace flightrec::http::detail {
namespace {

std::string key(std::string_view address, int port) {
  return std::string(address) + " " + std::to_string(port);
}

// As civetweb writes request_info's remote_addr and remote_port (inet_ntop, no brackets).
std::string key(const sockaddr_storage& client) {
  std::array<char, INET6_ADDRSTRLEN> text{};
  if (client.ss_family == AF_INET6) {
    const auto& v6 = reinterpret_cast<const sockaddr_in6&>(client);
    inet_ntop(AF_INET6, &v6.sin6_addr, text.data(), text.size());
    return key(text.data(), ntohs(v6.sin6_port));
  }
  const auto& v4 = reinterpret_cast<const sockaddr_in&>(client);
  inet_ntop(AF_INET, &v4.sin_addr, text.data(), text.size());
  return key(text.data(), ntohs(v4.sin_port));
}

}  // namespace

void ConnectionTable::add(const sockaddr_storage& client, int fd) {
  std::string k = key(client);
  const std::lock_guard lock(mutex_);
  fds_[std::move(k)] = fd;
}

void ConnectionTable::remove(std::string_view address, int port) {
  const std::string k = key(address, port);
  const std::lock_guard lock(mutex_);
  fds_.erase(k);
}

int ConnectionTable::find(std::string_view address, int port) const {
  const std::string k = key(address, port);
  const std::lock_guard lock(mutex_);
  const auto found = fds_.find(k);
  return found == fds_.end() ? -1 : found->second;
}

ConnectionTable& connection_table() {
  static ConnectionTable table;
  return table;
}

}  // namespace flightrec::http::detail
