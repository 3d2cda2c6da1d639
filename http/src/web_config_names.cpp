#include "web_config_names.h"

#include <algorithm>
#include <array>

namespace flightrec::http::detail {
namespace {

constexpr std::array kCiphers{
    CipherName{"TLS_RSA_WITH_AES_128_CBC_SHA", "AES128-SHA"},
    CipherName{"TLS_RSA_WITH_AES_256_CBC_SHA", "AES256-SHA"},
    CipherName{"TLS_RSA_WITH_AES_128_GCM_SHA256", "AES128-GCM-SHA256"},
    CipherName{"TLS_RSA_WITH_AES_256_GCM_SHA384", "AES256-GCM-SHA384"},
    CipherName{"TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA", "ECDHE-ECDSA-AES128-SHA"},
    CipherName{"TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA", "ECDHE-ECDSA-AES256-SHA"},
    CipherName{"TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA", "ECDHE-RSA-AES128-SHA"},
    CipherName{"TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA", "ECDHE-RSA-AES256-SHA"},
    CipherName{"TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256", "ECDHE-ECDSA-AES128-GCM-SHA256"},
    CipherName{"TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384", "ECDHE-ECDSA-AES256-GCM-SHA384"},
    CipherName{"TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", "ECDHE-RSA-AES128-GCM-SHA256"},
    CipherName{"TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384", "ECDHE-RSA-AES256-GCM-SHA384"},
    CipherName{"TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256", "ECDHE-ECDSA-CHACHA20-POLY1305"},
    CipherName{"TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256", "ECDHE-RSA-CHACHA20-POLY1305"},
    CipherName{"TLS_AES_128_GCM_SHA256", "TLS_AES_128_GCM_SHA256", true},
    CipherName{"TLS_AES_256_GCM_SHA384", "TLS_AES_256_GCM_SHA384", true},
    CipherName{"TLS_CHACHA20_POLY1305_SHA256", "TLS_CHACHA20_POLY1305_SHA256", true},
};

struct Named {
  std::string_view go;
  std::string_view openssl;
};
constexpr std::array kCurves{Named{"CurveP256", "P-256"}, Named{"CurveP384", "P-384"},
                             Named{"CurveP521", "P-521"}, Named{"X25519", "X25519"}};

struct VersionName {
  std::string_view name;
  TlsVersion version;
};
constexpr std::array kVersions{
    VersionName{"TLS10", TlsVersion::tls10}, VersionName{"TLS11", TlsVersion::tls11},
    VersionName{"TLS12", TlsVersion::tls12}, VersionName{"TLS13", TlsVersion::tls13}};

struct AuthName {
  std::string_view name;
  ClientAuth auth;
};
constexpr std::array kClientAuths{
    AuthName{"NoClientCert", ClientAuth::none},
    AuthName{"RequestClientCert", ClientAuth::request},
    AuthName{"RequireAnyClientCert", ClientAuth::require_any},
    AuthName{"VerifyClientCertIfGiven", ClientAuth::verify_if_given},
    AuthName{"RequireAndVerifyClientCert", ClientAuth::require_and_verify},
};

const std::vector<AllowedHeader>& allowed_headers() {
  static const std::vector<AllowedHeader> headers{
      {"Content-Security-Policy", {}},
      {"Strict-Transport-Security", {}},
      {"X-Content-Type-Options", {"nosniff"}},
      {"X-Frame-Options", {"deny", "sameorigin"}},
      {"X-XSS-Protection", {}},
  };
  return headers;
}

template <typename Table, typename Name>
std::vector<std::string_view> names_of(const Table& table, Name name) {
  std::vector<std::string_view> out;
  out.reserve(std::size(table));
  for (const auto& row : table) out.push_back(row.*name);
  return out;
}

}  // namespace

const CipherName* find_cipher(std::string_view go_name) {
  const auto* it = std::find_if(kCiphers.begin(), kCiphers.end(),
                                [&](const CipherName& row) { return row.go == go_name; });
  return it == kCiphers.end() ? nullptr : it;
}
std::vector<std::string_view> cipher_names() { return names_of(kCiphers, &CipherName::go); }

std::optional<std::string_view> find_curve(std::string_view go_name) {
  for (const auto& row : kCurves) {
    if (row.go == go_name) return row.openssl;
  }
  return std::nullopt;
}
std::vector<std::string_view> curve_names() { return names_of(kCurves, &Named::go); }

std::optional<TlsVersion> find_tls_version(std::string_view name) {
  for (const auto& row : kVersions) {
    if (row.name == name) return row.version;
  }
  return std::nullopt;
}
std::vector<std::string_view> tls_version_names() {
  return names_of(kVersions, &VersionName::name);
}

std::optional<ClientAuth> find_client_auth(std::string_view name) {
  if (name == "RequireClientCert") return ClientAuth::require_any;
  for (const auto& row : kClientAuths) {
    if (row.name == name) return row.auth;
  }
  return std::nullopt;
}
std::vector<std::string_view> client_auth_names() {
  return names_of(kClientAuths, &AuthName::name);
}

const AllowedHeader* find_allowed_header(std::string_view name) {
  for (const auto& row : allowed_headers()) {
    if (row.name == name) return &row;
  }
  return nullptr;
}
std::vector<std::string_view> allowed_header_names() {
  return names_of(allowed_headers(), &AllowedHeader::name);
}

}  // namespace flightrec::http::detail

namespace flightrec::http {

std::string_view client_auth_name(ClientAuth auth) {
  for (const auto& row : detail::kClientAuths) {
    if (row.auth == auth) return row.name;
  }
  return "?";
}

std::string_view tls_version_name(TlsVersion version) {
  for (const auto& row : detail::kVersions) {
    if (row.version == version) return row.name;
  }
  return "?";
}

}  // namespace flightrec::http
