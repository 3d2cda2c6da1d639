#pragma once
// Makes Debian's civetweb 1.15 usable with OpenSSL 3 (http/ssl_compat/ssl_get_peer_certificate.c
// explains the crash this prevents). Call before civetweb loads OpenSSL, i.e. before
// mg_init_library(MG_FEATURES_TLS).
#include <string>

namespace flightrec::http::detail {

// Loads the embedded shim once per process; returns "" or why it could not.
[[nodiscard]] std::string load_civetweb_ssl_compat();

}  // namespace flightrec::http::detail
