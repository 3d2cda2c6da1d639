#pragma once
// The --web.config.file format: the file node_exporter and every exporter built on Prometheus'
// exporter-toolkit read (its docs/web-configuration.md), so one file and one habit serve both.
//   tls_server_config:   certificate and key, client certificates, TLS versions, ciphers, curves
//   http_server_config:  extra response headers (a fixed set, as exporter-toolkit allows)
//   basic_auth_users:    user name -> bcrypt hash
// Parsing is strict: an unknown key, a value of the wrong kind or one outside the allowed set is
// an error naming the file, the line and the key path, e.g.
//   web.yml:4: tls_server_config.min_version: "TLS111" is not a TLS version (TLS10, TLS11, TLS12,
//   TLS13)
// Every error in the file is reported, in document order.
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "flightrec/http/request.h"

namespace flightrec::http {

// tls_server_config.client_auth_type, with Go's crypto/tls meanings.
enum class ClientAuth {
  none,                // NoClientCert: no certificate is asked for
  request,             // RequestClientCert: asked for, not required, not verified
  require_any,         // RequireAnyClientCert: required, not verified against client_ca_file
  verify_if_given,     // VerifyClientCertIfGiven: not required; verified when sent
  require_and_verify,  // RequireAndVerifyClientCert: required and verified
};

enum class TlsVersion { tls10, tls11, tls12, tls13 };

// A path from the file, resolved against the file's directory (as exporter-toolkit does), with the
// line it was written on for errors found when the file is loaded.
struct FileSetting {
  std::filesystem::path path;
  int line = 0;
  [[nodiscard]] bool empty() const { return path.empty(); }
};

struct TlsServerConfig {
  FileSetting cert_file;
  FileSetting key_file;
  FileSetting client_ca_file;
  ClientAuth client_auth = ClientAuth::none;
  TlsVersion min_version = TlsVersion::tls12;
  TlsVersion max_version = TlsVersion::tls13;
  // OpenSSL's names, translated from the Go names written in the file, in the file's order:
  // TLS 1.2 suites ("ECDHE-RSA-AES128-GCM-SHA256") and TLS 1.3 suites ("TLS_AES_128_GCM_SHA256").
  std::vector<std::string> tls12_ciphers;
  std::vector<std::string> tls13_ciphers;
  bool prefer_server_cipher_suites = true;
  std::vector<std::string> curves;  // OpenSSL group names ("P-256", "X25519"), in preference order
  std::vector<std::string> client_allowed_sans;  // empty: any verified client certificate

  // TLS is on once any of the certificate settings or client_auth_type is written.
  bool enabled = false;
};

// Whether two tls_server_config sections configure TLS the same way (the line numbers aside).
[[nodiscard]] bool same_tls_settings(const TlsServerConfig& a, const TlsServerConfig& b);

struct WebConfig {
  TlsServerConfig tls;
  std::vector<Header> headers;               // http_server_config.headers, in file order
  std::map<std::string, std::string> users;  // basic_auth_users: name -> bcrypt hash
  [[nodiscard]] bool requires_auth() const { return !users.empty(); }
};

// Not a Result<WebConfig>: a parse reports every error in the file, not the first.
struct WebConfigResult {
  std::optional<WebConfig> config;  // set exactly when `errors` is empty
  std::vector<std::string> errors;  // complete lines: "web.yml:4: key: what is wrong"
};

// Parses the text of a web config. `origin` prefixes every error; relative file names are
// resolved against `base_dir`. Pure: nothing is read but the text (certificates are loaded when
// TLS is set up, tls_context.h). An empty document is a valid config with nothing enabled.
[[nodiscard]] WebConfigResult parse_web_config(std::string_view yaml, std::string_view origin,
                                               const std::filesystem::path& base_dir);

// Reads and parses the file; a file that cannot be read is one error naming it and the reason.
[[nodiscard]] WebConfigResult load_web_config(const std::filesystem::path& path);

// The Go spellings the file takes, for messages and docs.
[[nodiscard]] std::string_view client_auth_name(ClientAuth auth);
[[nodiscard]] std::string_view tls_version_name(TlsVersion version);

}  // namespace flightrec::http
