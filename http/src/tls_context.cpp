#include "tls_context.h"

#include <arpa/inet.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include <algorithm>
#include <memory>

#include "openssl_error.h"
#include "server_certificate.h"

namespace flightrec::http::detail {
namespace {

int protocol_of(TlsVersion version) {
  switch (version) {
    case TlsVersion::tls10:
      return TLS1_VERSION;
    case TlsVersion::tls11:
      return TLS1_1_VERSION;
    case TlsVersion::tls12:
      return TLS1_2_VERSION;
    case TlsVersion::tls13:
      return TLS1_3_VERSION;
  }
  return TLS1_2_VERSION;
}

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& name : names) out += (out.empty() ? "" : ":") + name;
  return out;
}

// Where the allow-list lives for the verify callback, which only sees the SSL_CTX.
int sans_index() {
  static const int index = SSL_CTX_get_ex_new_index(0, nullptr, nullptr, nullptr, nullptr);
  return index;
}

// The certificate's DNS, e-mail, IP and URI alternative names, as Go spells them.
std::vector<std::string> subject_alt_names(X509* cert) {
  std::vector<std::string> out;
  auto* names =
      static_cast<GENERAL_NAMES*>(X509_get_ext_d2i(cert, NID_subject_alt_name, nullptr, nullptr));
  if (names == nullptr) return out;
  for (int i = 0; i < sk_GENERAL_NAME_num(names); ++i) {
    const GENERAL_NAME* name = sk_GENERAL_NAME_value(names, i);
    if (name->type == GEN_DNS || name->type == GEN_EMAIL || name->type == GEN_URI) {
      const ASN1_IA5STRING* text = name->d.ia5;
      out.emplace_back(reinterpret_cast<const char*>(ASN1_STRING_get0_data(text)),
                       static_cast<size_t>(ASN1_STRING_length(text)));
    } else if (name->type == GEN_IPADD) {
      const int length = ASN1_STRING_length(name->d.ip);
      char text[INET6_ADDRSTRLEN] = {};
      const int family = length == 4 ? AF_INET : length == 16 ? AF_INET6 : -1;
      if (family != -1 && inet_ntop(family, ASN1_STRING_get0_data(name->d.ip), text, sizeof text)) {
        out.emplace_back(text);
      }
    }
  }
  GENERAL_NAMES_free(names);
  return out;
}

bool has_allowed_san(X509_STORE_CTX* store) {
  auto* ssl =
      static_cast<SSL*>(X509_STORE_CTX_get_ex_data(store, SSL_get_ex_data_X509_STORE_CTX_idx()));
  const auto* tls =
      static_cast<const TlsServerConfig*>(SSL_CTX_get_ex_data(SSL_get_SSL_CTX(ssl), sans_index()));
  if (tls == nullptr || tls->client_allowed_sans.empty()) return true;
  for (const auto& san : subject_alt_names(X509_STORE_CTX_get_current_cert(store))) {
    const auto& allowed = tls->client_allowed_sans;
    if (std::find(allowed.begin(), allowed.end(), san) != allowed.end()) return true;
  }
  return false;
}

// Request/RequireAny: any certificate is taken (OpenSSL's own verdict is ignored, as Go does).
int accept_any_certificate(int /*preverify_ok*/, X509_STORE_CTX* store) {
  if (X509_STORE_CTX_get_error_depth(store) != 0) return 1;
  return has_allowed_san(store) ? 1 : 0;
}

int verify_certificate(int preverify_ok, X509_STORE_CTX* store) {
  if (preverify_ok == 0 || X509_STORE_CTX_get_error_depth(store) != 0) return preverify_ok;
  return has_allowed_san(store) ? 1 : 0;
}

// Loads client_ca_file as the trust store for client certificates. The CA names are not sent in
// the certificate request: with them, Go's TLS 1.3 client (Prometheus 2.42) aborted every
// handshake with "unexpected message" (tests/e2e/web_tls.sh); without them a client sends the
// certificate it was configured with, which is what scrapers do.
Status load_client_cas(SSL_CTX* ctx, const TlsServerConfig& tls, const std::string& where) {
  if (SSL_CTX_load_verify_locations(ctx, tls.client_ca_file.path.c_str(), nullptr) != 1) {
    return Error{where + "cannot load " + tls.client_ca_file.path.string() + ": " +
                 openssl_error()};
  }
  return {};
}

Status set_client_auth(SSL_CTX* ctx, const TlsServerConfig& tls, std::string_view origin) {
  const std::string where = std::string(origin) + ":" + std::to_string(tls.client_ca_file.line) +
                            ": tls_server_config.client_ca_file: ";
  if (!tls.client_ca_file.empty()) {
    if (Status loaded = load_client_cas(ctx, tls, where); !loaded) return loaded;
  }
  SSL_CTX_set_ex_data(ctx, sans_index(), const_cast<TlsServerConfig*>(&tls));
  switch (tls.client_auth) {
    case ClientAuth::none:
      SSL_CTX_set_verify(ctx, SSL_VERIFY_NONE, nullptr);
      break;
    case ClientAuth::request:
      SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, accept_any_certificate);
      break;
    case ClientAuth::require_any:
      SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT,
                         accept_any_certificate);
      break;
    case ClientAuth::verify_if_given:
      SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, verify_certificate);
      break;
    case ClientAuth::require_and_verify:
      SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT,
                         verify_certificate);
      break;
  }
  // Client verification with session resumption needs a session id context.
  static constexpr unsigned char kContext[] = "flightrec";
  SSL_CTX_set_session_id_context(ctx, kContext, sizeof kContext - 1);
  return {};
}

Status set_protocol(SSL_CTX* ctx, const TlsServerConfig& tls, std::string_view origin) {
  const std::string where = std::string(origin) + ": tls_server_config.";
  // OpenSSL 3 negotiates TLS 1.0 and 1.1 only at security level 0 (they sign with MD5/SHA-1);
  // lowering the level for the whole context would weaken more than the version, so say so.
  if (tls.min_version < TlsVersion::tls12 && SSL_CTX_get_security_level(ctx) > 0) {
    return Error{
        where + "min_version: " + std::string(tls_version_name(tls.min_version)) +
        " cannot be honoured: this OpenSSL allows TLS 1.0 and 1.1 only at security level 0, "
        "which flightrec does not lower; use TLS12 or TLS13"};
  }
  if (SSL_CTX_set_min_proto_version(ctx, protocol_of(tls.min_version)) != 1 ||
      SSL_CTX_set_max_proto_version(ctx, protocol_of(tls.max_version)) != 1) {
    return Error{where + "min_version/max_version: OpenSSL refused them: " + openssl_error()};
  }
  if (!tls.tls12_ciphers.empty() &&
      SSL_CTX_set_cipher_list(ctx, joined(tls.tls12_ciphers).c_str()) != 1) {
    return Error{where + "cipher_suites: this OpenSSL cannot use " + joined(tls.tls12_ciphers) +
                 ": " + openssl_error()};
  }
  if (!tls.tls13_ciphers.empty() &&
      SSL_CTX_set_ciphersuites(ctx, joined(tls.tls13_ciphers).c_str()) != 1) {
    return Error{where + "cipher_suites: this OpenSSL cannot use " + joined(tls.tls13_ciphers) +
                 ": " + openssl_error()};
  }
  if (!tls.curves.empty() && SSL_CTX_set1_groups_list(ctx, joined(tls.curves).c_str()) != 1) {
    return Error{where + "curve_preferences: this OpenSSL cannot use " + joined(tls.curves) + ": " +
                 openssl_error()};
  }
  if (tls.prefer_server_cipher_suites) {
    SSL_CTX_set_options(ctx, SSL_OP_CIPHER_SERVER_PREFERENCE);
  } else {
    SSL_CTX_clear_options(ctx, SSL_OP_CIPHER_SERVER_PREFERENCE);
  }
  return {};
}

Status load_certificate(SSL_CTX* ctx, const TlsServerConfig& tls, std::string_view origin) {
  const auto where = [&](const FileSetting& file, std::string_view key) {
    return std::string(origin) + ":" + std::to_string(file.line) + ": tls_server_config." +
           std::string(key) + ": cannot load " + file.path.string() + ": ";
  };
  if (SSL_CTX_use_certificate_chain_file(ctx, tls.cert_file.path.c_str()) != 1) {
    return Error{where(tls.cert_file, "cert_file") + openssl_error()};
  }
  if (SSL_CTX_use_PrivateKey_file(ctx, tls.key_file.path.c_str(), SSL_FILETYPE_PEM) != 1) {
    return Error{where(tls.key_file, "key_file") + openssl_error()};
  }
  if (SSL_CTX_check_private_key(ctx) != 1) {
    return Error{where(tls.key_file, "key_file") +
                 "the key does not belong to cert_file: " + openssl_error()};
  }
  // The files as loaded above serve until they change; then the rotated pair serves.
  auto rotating = std::make_unique<ServerCertificate>(tls.cert_file.path, tls.key_file.path);
  if (const Status loaded = rotating->load(); !loaded) {
    return Error{std::string(origin) + ": tls_server_config: " + loaded.error()};
  }
  ServerCertificate::attach(ctx, std::move(rotating));
  return {};
}

}  // namespace

Result<std::shared_ptr<TlsContext>> make_tls_context(const TlsServerConfig& tls,
                                                     std::string_view origin) {
  ERR_clear_error();
  auto built = std::make_shared<TlsContext>(TlsContext{.settings = tls, .ctx = {}});
  built->ctx.reset(SSL_CTX_new(TLS_server_method()));
  SSL_CTX* ctx = built->ctx.get();
  if (ctx == nullptr) return Error{std::string(origin) + ": tls_server_config: " + openssl_error()};
  // The gate's sockets are non-blocking and its buffers move: a write may be partial and be
  // retried from a new address. Idle connections give their record buffers back.
  SSL_CTX_set_mode(ctx, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER |
                            SSL_MODE_RELEASE_BUFFERS);
  // Renegotiation would let one client make the gate's thread handshake without end. A client
  // that closes without close_notify (most HTTP clients) has ended, not failed.
  SSL_CTX_set_options(ctx, SSL_OP_NO_RENEGOTIATION | SSL_OP_IGNORE_UNEXPECTED_EOF);
  for (const auto& step : {load_certificate, set_protocol, set_client_auth}) {
    // The settings the context keeps, not the caller's copy: the verify callback reads them.
    if (Status done = step(ctx, built->settings, origin); !done) return Error{done.error()};
  }
  return built;
}

}  // namespace flightrec::http::detail
