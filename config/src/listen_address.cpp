#include "flightrec/config/listen_address.h"

#include <arpa/inet.h>

#include <algorithm>
#include <charconv>

namespace flightrec::config {
namespace {

std::optional<uint16_t> parse_port(std::string_view text) {
  if (text.empty() || text.size() > 5) return std::nullopt;
  unsigned value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value > 65535) {
    return std::nullopt;
  }
  return static_cast<uint16_t>(value);
}

bool is_ip_literal(int family, std::string_view text) {
  std::string terminated(text);
  unsigned char buffer[16];
  return ::inet_pton(family, terminated.c_str(), buffer) == 1;
}

// RFC 1123 host name: dot-separated labels of letters, digits and inner hyphens, 1..63 each.
bool is_dns_name(std::string_view text) {
  if (text.empty() || text.size() > 253) return false;
  size_t start = 0;
  while (start <= text.size()) {
    size_t dot = std::min(text.find('.', start), text.size());
    std::string_view label = text.substr(start, dot - start);
    if (label.empty() || label.size() > 63 || label.front() == '-' || label.back() == '-') {
      return false;
    }
    for (char c : label) {
      bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
      if (!alnum && c != '-') return false;
    }
    start = dot + 1;
  }
  return true;
}

bool looks_numeric(std::string_view host) {
  return std::all_of(host.begin(), host.end(),
                     [](char c) { return c == '.' || (c >= '0' && c <= '9'); });
}

}  // namespace

std::optional<ListenAddress> parse_listen_address(std::string_view text) {
  if (text.starts_with('[')) {
    size_t close = text.find("]:");
    if (close == std::string_view::npos) return std::nullopt;
    std::string_view host = text.substr(1, close - 1);
    auto port = parse_port(text.substr(close + 2));
    if (!port || !is_ip_literal(AF_INET6, host)) return std::nullopt;
    return ListenAddress{std::string(host), *port, true};
  }
  size_t colon = text.rfind(':');
  if (colon == std::string_view::npos) return std::nullopt;
  std::string_view host = text.substr(0, colon);
  auto port = parse_port(text.substr(colon + 1));
  if (!port) return std::nullopt;
  // "999.1.1.1" or "1.2.3" are mistyped IPv4 addresses, not host names to resolve.
  bool valid_host = looks_numeric(host) ? is_ip_literal(AF_INET, host) : is_dns_name(host);
  if (!valid_host) return std::nullopt;
  return ListenAddress{std::string(host), *port, false};
}

bool is_loopback(const ListenAddress& address) {
  if (address.is_ipv6) return address.host == "::1";
  // A DNS name may start with "127." too; only the IPv4 literal is the loopback network.
  return address.host == "localhost" ||
         (looks_numeric(address.host) && address.host.starts_with("127."));
}

}  // namespace flightrec::config
