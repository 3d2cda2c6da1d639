#pragma once
// Plain HTTP sent to an HTTPS port, or a TLS handshake sent to a plain HTTP one, ends in a reset
// that libcurl reports as a receive or TLS failure: on its own that reads like a missing client
// certificate. One more connection, which sends no credentials, tells the two apart.
#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace flightrec::replay::detail {

// For `url` (http:// or https://), whose request the server cut: "the server at H port P speaks
// HTTPS, not plain HTTP: ..." when a TLS handshake with it succeeds (url is http://), the same for
// plain HTTP when it answers a HEAD without TLS (url is https://); nullopt when it does neither.
// Each probe is bounded by `timeout`. The server's certificate is not checked: the probe asks only
// which protocol the port speaks, and sends nothing over it.
std::optional<std::string> other_scheme_hint(std::string_view url,
                                             std::chrono::milliseconds timeout);

}  // namespace flightrec::replay::detail
