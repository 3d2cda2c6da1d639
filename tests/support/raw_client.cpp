#include "raw_client.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>

#include <catch2/catch.hpp>

namespace flightrec::testing {

Fd connect_to(uint16_t port) {
  Fd sock(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(::connect(sock.get(), reinterpret_cast<const sockaddr*>(&addr), sizeof addr) == 0);
  return sock;
}

void send_text(const Fd& sock, std::string_view text) {
  REQUIRE(::send(sock.get(), text.data(), text.size(), MSG_NOSIGNAL) ==
          static_cast<ssize_t>(text.size()));
}

std::string read_until_closed(const Fd& sock, std::chrono::milliseconds limit) {
  std::string got;
  const auto end = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < end) {
    pollfd p{.fd = sock.get(), .events = POLLIN, .revents = 0};
    if (::poll(&p, 1, 20) <= 0) continue;
    char buffer[4096];
    const ssize_t n = ::recv(sock.get(), buffer, sizeof buffer, 0);
    if (n <= 0) break;
    got.append(buffer, static_cast<size_t>(n));
  }
  return got;
}

bool closed_within(const Fd& sock, std::chrono::milliseconds limit) {
  const auto end = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < end) {
    pollfd p{.fd = sock.get(), .events = POLLIN, .revents = 0};
    if (::poll(&p, 1, 20) <= 0) continue;
    char buffer[4096];
    if (::recv(sock.get(), buffer, sizeof buffer, 0) <= 0) return true;
  }
  return false;
}

}  // namespace flightrec::testing
