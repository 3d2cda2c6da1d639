#include "openssl_error.h"

#include <openssl/err.h>

namespace flightrec::http::detail {

std::string openssl_error(std::string_view if_none) {
  const unsigned long code = ERR_get_error();  // NOLINT(google-runtime-int): OpenSSL's type
  ERR_clear_error();
  if (code == 0) return std::string(if_none);
  char text[256];
  ERR_error_string_n(code, text, sizeof text);
  return text;
}

}  // namespace flightrec::http::detail
