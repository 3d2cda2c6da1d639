#pragma once
// The OpenSSL context the connection gate terminates TLS with (tls_session.h), built from
// tls_server_config: the certificate chain and key, client certificates (each of Go's
// client_auth_type modes), TLS versions, cipher suites, curves, the server's cipher preference,
// and the client SAN allow-list.
#include <openssl/ssl.h>

#include <memory>
#include <string>
#include <string_view>

#include "flightrec/common/result.h"
#include "flightrec/http/web_config.h"

namespace flightrec::http::detail {

struct FreeSslContext {
  void operator()(SSL_CTX* ctx) const noexcept { SSL_CTX_free(ctx); }
};

// A context and the settings it was built from, which its verify callback reads: whoever holds a
// connection of the context holds this too (a reload may replace it meanwhile).
struct TlsContext {
  TlsServerConfig settings;
  std::unique_ptr<SSL_CTX, FreeSslContext> ctx;
};

// The context, or what is wrong, naming the key and file, e.g.
//   web.yml:3: tls_server_config.cert_file: cannot load /etc/x.crt: no such file
[[nodiscard]] Result<std::shared_ptr<TlsContext>> make_tls_context(const TlsServerConfig& tls,
                                                                   std::string_view origin);

}  // namespace flightrec::http::detail
