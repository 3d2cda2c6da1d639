#pragma once
// The names the web config file takes (Go's crypto/tls spellings, as exporter-toolkit reads them)
// and what each becomes here: OpenSSL's names for cipher suites and curves.
#include <optional>
#include <string_view>
#include <vector>

#include "flightrec/http/web_config.h"

namespace flightrec::http::detail {

struct CipherName {
  std::string_view go;       // "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256"
  std::string_view openssl;  // "ECDHE-RSA-AES128-GCM-SHA256"
  bool tls13 = false;        // a TLS 1.3 suite (SSL_CTX_set_ciphersuites, not the cipher list)
};

// The suites Go's tls.CipherSuites() lists (the ones exporter-toolkit accepts); Go's insecure
// suites (3DES, RC4, CBC with SHA-256) are refused there and here.
[[nodiscard]] const CipherName* find_cipher(std::string_view go_name);
[[nodiscard]] std::vector<std::string_view> cipher_names();

// CurveP256, CurveP384, CurveP521, X25519 -> OpenSSL group names.
[[nodiscard]] std::optional<std::string_view> find_curve(std::string_view go_name);
[[nodiscard]] std::vector<std::string_view> curve_names();

[[nodiscard]] std::optional<TlsVersion> find_tls_version(std::string_view name);
[[nodiscard]] std::vector<std::string_view> tls_version_names();

// Go's spellings, with "RequireClientCert", exporter-toolkit's old name for RequireAnyClientCert.
[[nodiscard]] std::optional<ClientAuth> find_client_auth(std::string_view name);
[[nodiscard]] std::vector<std::string_view> client_auth_names();

// The headers http_server_config.headers may set and, where the set is closed, their values;
// an empty list means any single-line value.
struct AllowedHeader {
  std::string_view name;
  std::vector<std::string_view> values;
};
[[nodiscard]] const AllowedHeader* find_allowed_header(std::string_view name);
[[nodiscard]] std::vector<std::string_view> allowed_header_names();

}  // namespace flightrec::http::detail
