#pragma once
// OpenSSL's oldest queued error as text, for messages that name the file and key at fault.
#include <string>
#include <string_view>

namespace flightrec::http::detail {

// Takes and clears OpenSSL's error queue; `if_none` when the queue was empty.
[[nodiscard]] std::string openssl_error(std::string_view if_none = "unknown OpenSSL error");

}  // namespace flightrec::http::detail
