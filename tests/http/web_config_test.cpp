#include "flightrec/http/web_config.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <string>
#include <utility>

#include "temp_dir.h"

using namespace flightrec::http;

namespace {

const std::string kHash = "$2y$10$" + std::string(53, 'a');

WebConfig parse_ok(const std::string& yaml) {
  auto result = parse_web_config(yaml, "web.yml", "/etc/flightrec");
  INFO((result.errors.empty() ? std::string() : result.errors.front()));
  REQUIRE(result.config);
  return *result.config;
}

// The one error the text yields.
std::string error_of(const std::string& yaml) {
  auto result = parse_web_config(yaml, "web.yml", "/etc/flightrec");
  REQUIRE_FALSE(result.config);
  REQUIRE(result.errors.size() == 1);
  return result.errors.front();
}

}  // namespace

TEST_CASE("web config: an empty file enables nothing", "[http][web_config]") {
  for (const std::string text : {"", "# only a comment\n", "---\n"}) {
    const auto config = parse_ok(text);
    CHECK_FALSE(config.tls.enabled);
    CHECK_FALSE(config.requires_auth());
    CHECK(config.headers.empty());
  }
}

TEST_CASE("web config: every tls_server_config key is read", "[http][web_config]") {
  const auto config = parse_ok(R"(tls_server_config:
  cert_file: server.crt
  key_file: /abs/server.key
  client_auth_type: RequireAndVerifyClientCert
  client_ca_file: ca.crt
  min_version: TLS13
  max_version: TLS13
  cipher_suites: [TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, TLS_AES_256_GCM_SHA384]
  prefer_server_cipher_suites: false
  curve_preferences: [X25519, CurveP256]
  client_allowed_sans: [client.example, 10.0.0.1]
)");
  const auto& tls = config.tls;
  CHECK(tls.enabled);
  CHECK(tls.cert_file.path == "/etc/flightrec/server.crt");  // relative to the file
  CHECK(tls.cert_file.line == 2);
  CHECK(tls.key_file.path == "/abs/server.key");
  CHECK(tls.client_ca_file.path == "/etc/flightrec/ca.crt");
  CHECK(tls.client_auth == ClientAuth::require_and_verify);
  CHECK(tls.min_version == TlsVersion::tls13);
  CHECK(tls.max_version == TlsVersion::tls13);
  CHECK(tls.tls12_ciphers == std::vector<std::string>{"ECDHE-RSA-AES128-GCM-SHA256"});
  CHECK(tls.tls13_ciphers == std::vector<std::string>{"TLS_AES_256_GCM_SHA384"});
  CHECK_FALSE(tls.prefer_server_cipher_suites);
  CHECK(tls.curves == std::vector<std::string>{"X25519", "P-256"});
  CHECK(tls.client_allowed_sans == std::vector<std::string>{"client.example", "10.0.0.1"});
}

TEST_CASE("web config: TLS defaults are exporter-toolkit's", "[http][web_config]") {
  const auto tls = parse_ok("tls_server_config:\n  cert_file: a\n  key_file: b\n").tls;
  CHECK(tls.min_version == TlsVersion::tls12);
  CHECK(tls.max_version == TlsVersion::tls13);
  CHECK(tls.client_auth == ClientAuth::none);
  CHECK(tls.prefer_server_cipher_suites);
  CHECK(tls.tls12_ciphers.empty());
  CHECK(tls.curves.empty());
}

TEST_CASE("web config: every client_auth_type", "[http][web_config]") {
  const std::vector<std::pair<std::string, ClientAuth>> cases{
      {"NoClientCert", ClientAuth::none},
      {"RequestClientCert", ClientAuth::request},
      {"RequireAnyClientCert", ClientAuth::require_any},
      {"RequireClientCert", ClientAuth::require_any},
      {"VerifyClientCertIfGiven", ClientAuth::verify_if_given},
      {"RequireAndVerifyClientCert", ClientAuth::require_and_verify}};
  for (const auto& [name, auth] : cases) {
    // A CA file is needed by the verifying types and refused with NoClientCert (checked below).
    const std::string ca = auth == ClientAuth::none ? "" : "  client_ca_file: ca\n";
    const auto tls = parse_ok("tls_server_config:\n  cert_file: a\n  key_file: b\n" + ca +
                              "  client_auth_type: " + name + "\n")
                         .tls;
    CHECK(tls.enabled);
    CHECK(tls.client_auth == auth);
    // Messages name each type as the file spells it (the old alias aside).
    if (name != "RequireClientCert") CHECK(client_auth_name(auth) == name);
  }
}

TEST_CASE("web config: every TLS version reads and is named as written", "[http][web_config]") {
  for (const auto& [name, version] :
       {std::pair{"TLS10", TlsVersion::tls10}, std::pair{"TLS11", TlsVersion::tls11},
        std::pair{"TLS12", TlsVersion::tls12}, std::pair{"TLS13", TlsVersion::tls13}}) {
    const auto tls = parse_ok("tls_server_config:\n  cert_file: a\n  key_file: b\n  min_version: " +
                              std::string(name) + "\n  max_version: TLS13\n")
                         .tls;
    CHECK(tls.min_version == version);
    CHECK(tls_version_name(version) == name);
  }
}

TEST_CASE("web config: headers and users are read", "[http][web_config]") {
  const auto config = parse_ok(
      "http_server_config:\n  http2: false\n  headers:\n"
      "    X-Frame-Options: deny\n"
      "    Strict-Transport-Security: max-age=31536000\n"
      "    X-Content-Type-Options: nosniff\n"
      "    X-XSS-Protection: 1\n"
      "    Content-Security-Policy: \"default-src 'self'\"\n"
      "basic_auth_users:\n  alice: " +
      kHash + "\n  bob: '" + kHash + "'\n");
  REQUIRE(config.headers.size() == 5);
  CHECK(config.headers[0] == Header{"X-Frame-Options", "deny"});
  CHECK(config.headers[4] == Header{"Content-Security-Policy", "default-src 'self'"});
  CHECK(config.users.at("alice") == kHash);
  CHECK(config.users.size() == 2);
  CHECK(config.requires_auth());
  CHECK_FALSE(config.tls.enabled);
}

TEST_CASE("web config: every error names file, line and key", "[http][web_config]") {
  const std::vector<std::pair<std::string, std::string>> cases{
      {"tls_server_confg:\n  cert_file: a\n",
       "web.yml:1: tls_server_confg: unknown key; did you mean \"tls_server_config\"?"},
      {"tls_server_config:\n  cert_file: a\n  key_file: b\n  min_version: TLS111\n",
       "web.yml:4: tls_server_config.min_version: \"TLS111\" is not a TLS version (one of: TLS10, "
       "TLS11, TLS12, TLS13)"},
      {"tls_server_config:\n  cert_file: a\n  key_file: b\n  max_version: 1.3\n",
       "web.yml:4: tls_server_config.max_version: \"1.3\" is not a TLS version"},
      {"tls_server_config:\n  cert_file: a\n  key_file: b\n  client_auth_type: Yes\n",
       "web.yml:4: tls_server_config.client_auth_type: \"Yes\" is not a client auth type"},
      {"tls_server_config:\n  cert_file: a\n  key_file: b\n  cipher_suites:\n    - "
       "TLS_RSA_WITH_RC4_128_SHA\n",
       "web.yml:5: tls_server_config.cipher_suites[0]: \"TLS_RSA_WITH_RC4_128_SHA\" is not a "
       "cipher suite"},
      {"tls_server_config:\n  cert_file: a\n  key_file: b\n  curve_preferences: [CurveP128]\n",
       "web.yml:4: tls_server_config.curve_preferences[0]: \"CurveP128\" is not a curve (one of: "
       "CurveP256, CurveP384, CurveP521, X25519)"},
      {"tls_server_config:\n  cert_file: a\n  key_file: b\n  prefer_server_cipher_suites: maybe\n",
       "web.yml:4: tls_server_config.prefer_server_cipher_suites: \"maybe\" is not a boolean"},
      {"tls_server_config:\n  cert_file: a\n  key_file: b\n  client_allowed_sans: x\n",
       "web.yml:4: tls_server_config.client_allowed_sans: expected a list, got the value \"x\""},
      {"tls_server_config:\n  cert_file: a\n  key_file: b\n  client_auth_type: [a]\n",
       "web.yml:4: tls_server_config.client_auth_type: expected a string, got a list"},
      {"tls_server_config:\n  cert_file: a\n",
       "web.yml:1: tls_server_config: key_file is required"},
      {"tls_server_config:\n  key_file: a\n",
       "web.yml:1: tls_server_config: cert_file is required"},
      {"tls_server_config:\n  client_auth_type: RequireAnyClientCert\n  cert_file: a\n  key_file: "
       "b\n  client_ca_file: c\n  client_auth_type: NoClientCert\n",
       "web.yml:6: tls_server_config.client_auth_type: duplicate key (first written on line 2)"},
      {"tls_server_config:\n  cert_file: a\n  key_file: b\n  client_ca_file: c\n",
       "web.yml:1: tls_server_config: client_ca_file is set but client_auth_type is NoClientCert"},
      {"tls_server_config:\n  cert_file: a\n  key_file: b\n  client_auth_type: "
       "RequireAndVerifyClientCert\n",
       "web.yml:1: tls_server_config: RequireAndVerifyClientCert needs client_ca_file"},
      {"tls_server_config:\n  cert_file: a\n  key_file: b\n  min_version: TLS13\n  max_version: "
       "TLS12\n",
       "web.yml:1: tls_server_config: min_version TLS13 is above max_version TLS12"},
      {"tls_server_config:\n  cert: |\n    PEM\n  cert_file: a\n  key_file: b\n",
       "web.yml:2: tls_server_config.cert: not supported by flightrec (put the PEM text in a file "
       "and "
       "name it in cert_file)"},
      {"tls_server_config: yes\n",
       "web.yml:1: tls_server_config: expected a map, got the value \"yes\""},
      {"rate_limit:\n  interval: 1s\n", "web.yml:1: rate_limit: not supported by flightrec"},
      {"http_server_config:\n  headers:\n    Server: flightrec\n",
       "web.yml:3: http_server_config.headers.Server: unknown key (known here: "
       "Content-Security-Policy, Strict-Transport-Security, X-Content-Type-Options, "
       "X-Frame-Options, X-XSS-Protection)"},
      {"http_server_config:\n  headers:\n    X-Frame-Options: allow\n",
       "web.yml:3: http_server_config.headers.X-Frame-Options: \"allow\" is not allowed (one of: "
       "deny, sameorigin)"},
      {"http_server_config:\n  headers:\n    X-Content-Type-Options: sniff\n",
       "web.yml:3: http_server_config.headers.X-Content-Type-Options: \"sniff\" is not allowed"},
      {"http_server_config:\n  headers:\n    X-XSS-Protection: \"1\\r\\nSet-Cookie: x\"\n",
       "web.yml:3: http_server_config.headers.X-XSS-Protection: a header value must be one line"},
      {"http_server_config:\n  http3: true\n",
       "web.yml:2: http_server_config.http3: unknown key; did you mean "
       "\"http_server_config.http2\"?"},
      {"http_server_config:\n  http2: sometimes\n",
       "web.yml:2: http_server_config.http2: \"sometimes\" is not a boolean"},
      {"basic_auth_users:\n  alice: secret\n",
       "web.yml:2: basic_auth_users.alice: not a bcrypt hash"},
      {"basic_auth_users:\n  alice: $2y$03$" + std::string(53, 'a') + "\n",
       "web.yml:2: basic_auth_users.alice: not a bcrypt hash"},
      {"basic_auth_users:\n  \"a:b\": " + kHash + "\n",
       "web.yml:2: basic_auth_users.a:b: a user name must be non-empty, one line, and hold no ':'"},
      {"basic_auth_users:\n  alice: " + kHash + "\n  alice: " + kHash + "\n",
       "web.yml:3: basic_auth_users.alice: duplicate key (first written on line 2)"},
      {"basic_auth_users: [alice]\n", "web.yml:1: basic_auth_users: expected a map, got a list"},
      {"- a\n", "web.yml:1: the top level must be a map, got a list"},
      {"a: [\n", "web.yml:2: YAML syntax error"},
      {"a: " + std::string(10000, '[') + std::string(10000, ']') + "\n",
       "web.yml:1: YAML nesting depth limit exceeded: lists and maps nest at most 499 levels "
       "deep"},
      {"a: 1\n---\nb: 2\n", "web.yml:2: only one YAML document is allowed"},
  };
  for (const auto& [yaml, expected] : cases) {
    INFO(yaml);
    CHECK_THAT(error_of(yaml), Catch::StartsWith(expected));
  }
}

TEST_CASE("web config: every error in the file is reported, in order", "[http][web_config]") {
  const auto result = parse_web_config(
      "tls_server_config:\n  cert_file: a\n  min_version: TLS9\nbasic_auth_users:\n  bob: x\n"
      "foo: 1\n",
      "web.yml", ".");
  REQUIRE(result.errors.size() == 4);
  CHECK_THAT(result.errors[0], Catch::StartsWith("web.yml:3: tls_server_config.min_version"));
  CHECK_THAT(result.errors[1], Catch::StartsWith("web.yml:1: tls_server_config: key_file"));
  CHECK_THAT(result.errors[2], Catch::StartsWith("web.yml:5: basic_auth_users.bob"));
  CHECK_THAT(result.errors[3], Catch::StartsWith("web.yml:6: foo: unknown key"));
}

TEST_CASE("web config: a file is read relative to its directory", "[http][web_config]") {
  flightrec::testing::TempDir dir;
  const auto path = dir.path() / "web.yml";
  std::ofstream(path) << "tls_server_config:\n  cert_file: s.crt\n  key_file: s.key\n";
  const auto result = load_web_config(path);
  REQUIRE(result.config);
  CHECK(result.config->tls.cert_file.path == dir.path() / "s.crt");

  const auto missing = load_web_config(dir.path() / "nope.yml");
  REQUIRE(missing.errors.size() == 1);
  CHECK_THAT(missing.errors[0], Catch::Contains("nope.yml: cannot read web config file: No such"));
  const auto directory = load_web_config(dir.path());
  CHECK_THAT(directory.errors.at(0), Catch::Contains("not a regular file"));
}
