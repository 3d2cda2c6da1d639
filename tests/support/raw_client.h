#pragma once
// A client that speaks raw bytes over loopback TCP, for the server tests that send what curl
// would not (a header that never ends, a body that never comes) or watch when the server closes.
#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

#include "flightrec/common/fd.h"

namespace flightrec::testing {

// A blocking socket connected to 127.0.0.1:`port`.
Fd connect_to(uint16_t port);
void send_text(const Fd& sock, std::string_view text);
// Everything the server sends until it closes or `limit` passes.
std::string read_until_closed(const Fd& sock, std::chrono::milliseconds limit);
// Whether the server closes the connection within `limit` (what it sends meanwhile is dropped).
bool closed_within(const Fd& sock, std::chrono::milliseconds limit);

}  // namespace flightrec::testing
