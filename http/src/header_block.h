#pragma once
// Where a request's header block ends, as civetweb itself finds it (get_http_header_len): at
// "\n\n" or "\n\r\n". The connection gate hands a connection to civetweb only once this holds.
#include <string_view>

namespace flightrec::http::detail {

[[nodiscard]] inline bool header_block_complete(std::string_view bytes) {
  return bytes.find("\n\n") != std::string_view::npos ||
         bytes.find("\n\r\n") != std::string_view::npos;
}

}  // namespace flightrec::http::detail
