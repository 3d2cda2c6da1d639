#pragma once
// Sets up civetweb's OpenSSL context from tls_server_config, in civetweb's init_ssl callback: the
// certificate chain and key, client certificates (each of Go's client_auth_type modes), TLS
// versions, cipher suites, curves, the server's cipher preference, and the client SAN allow-list.
// civetweb's own TLS options cover only part of that (no maximum version, no curves, no
// "request but do not verify"), so the whole context is configured here and civetweb is told so.
#include <string>
#include <string_view>

#include "flightrec/http/web_config.h"

namespace flightrec::http::detail {

// Configures `ssl_ctx` (an SSL_CTX*). `tls` must outlive the context: the verify callback reads
// its client_allowed_sans. Returns "" or the error, naming the key and file, e.g.
//   web.yml:3: tls_server_config.cert_file: cannot load /etc/x.crt: no such file
[[nodiscard]] std::string configure_tls_context(void* ssl_ctx, const TlsServerConfig& tls,
                                                std::string_view origin);

}  // namespace flightrec::http::detail
