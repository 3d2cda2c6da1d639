#pragma once
// The `web.listen_address` syntax: "host:port" or "[ipv6]:port", port 0..65535 (0: any free port).
// The host is an IPv4 literal, a bracketed IPv6 literal or a DNS name; it is never empty, so
// listening on every interface is always explicit ("0.0.0.0:9717", "[::]:9717").
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace flightrec::config {

struct ListenAddress {
  std::string host;  // without brackets: "127.0.0.1", "::1", "localhost"
  uint16_t port = 0;
  bool is_ipv6 = false;
  bool operator==(const ListenAddress&) const = default;
};

[[nodiscard]] std::optional<ListenAddress> parse_listen_address(std::string_view text);

// True when only this machine can connect: 127.0.0.0/8, ::1 or "localhost". Every other host,
// the wildcards 0.0.0.0 and :: included, may be reachable from the network.
[[nodiscard]] bool is_loopback(const ListenAddress& address);

}  // namespace flightrec::config
