#include "web_config_names.h"

#include <algorithm>
#include <array>

#include "flightrec/common/enum_names.h"

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

constexpr EnumName<TlsVersion> kVersions[] = {{TlsVersion::tls10, "TLS10"},
                                              {TlsVersion::tls11, "TLS11"},
                                              {TlsVersion::tls12, "TLS12"},
                                              {TlsVersion::tls13, "TLS13"}};
static_assert(names_are_distinct(kVersions));

constexpr EnumName<ClientAuth> kClientAuths[] = {
    {ClientAuth::none, "NoClientCert"},
    {ClientAuth::request, "RequestClientCert"},
    {ClientAuth::require_any, "RequireAnyClientCert"},
    {ClientAuth::verify_if_given, "VerifyClientCertIfGiven"},
    {ClientAuth::require_and_verify, "RequireAndVerifyClientCert"},
};
static_assert(names_are_distinct(kClientAuths));

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
  return value_named(kVersions, name);
}
std::vector<std::string_view> tls_version_names() {
  return names_of(kVersions, &EnumName<TlsVersion>::name);
}

std::optional<ClientAuth> find_client_auth(std::string_view name) {
  if (name == "RequireClientCert") return ClientAuth::require_any;
  return value_named(kClientAuths, name);
}
std::vector<std::string_view> client_auth_names() {
  return names_of(kClientAuths, &EnumName<ClientAuth>::name);
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

std::string_view client_auth_name(ClientAuth auth) { return name_of(detail::kClientAuths, auth); }

std::string_view tls_version_name(TlsVersion version) {
  return name_of(detail::kVersions, version);
}

}  // namespace flightrec::http
