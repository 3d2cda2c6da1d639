// What the server counts for /metrics, on a real server driven by curl and raw sockets: every
// response by route pattern and status (the handler's own, civetweb's refusals before routing),
// every refused credential by kind, and every connection the gate closes by why.
#include "flightrec/http/server_stats.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "bcrypt_hash.h"
#include "curl.h"
#include "flightrec/common/fd.h"
#include "flightrec/http/access.h"
#include "flightrec/http/server.h"
#include "raw_client.h"
#include "temp_dir.h"

using namespace flightrec::http;
using flightrec::Fd;
using flightrec::testing::closed_within;
using flightrec::testing::connect_to;
using flightrec::testing::send_text;
using flightrec::testing::TempDir;
using namespace std::chrono_literals;

namespace {

std::string status(const std::string& args) {
  return flightrec::testing::curl("-o /dev/null -w %{http_code} " + args, 5);
}

// Sends `text` and waits until the server closes the connection (or 3 s pass).
void send_and_wait_close(uint16_t port, std::string_view text) {
  const Fd sock = connect_to(port);
  if (!text.empty()) send_text(sock, text);
  if (!closed_within(sock, 3s)) FAIL("the server did not close the connection");
}

// "handler code count" per line, as ServerStats::responses lists them.
std::string responses_text(const ServerStats& stats) {
  std::string out;
  for (const auto& r : stats.responses()) {
    out += r.handler + " " + std::to_string(r.code) + " " + std::to_string(r.count) + "\n";
  }
  return out;
}

std::vector<Route> routes() {
  const auto ok = [](const Request&, Response& res) { res.send(200, "text/plain", "ok\n"); };
  return {
      {.path = "/metrics", .handler = ok, .right = Right::read_metrics},
      {.path = "/dump", .handler = ok},
      {.path = "/incidents/{id}",
       .handler =
           [](const Request& req, Response& res) {
             res.send(req.path_value("id") == "missing" ? 404 : 200, "text/plain", "\n");
           }},
      {.path = "/boom",
       .handler = [](const Request&, Response&) { throw std::runtime_error("kaput"); },
       .right = Right::read_metrics},
  };
}

// A self-signed certificate for 127.0.0.1, in `dir`; returns the tls_server_config lines.
std::string tls_settings(const TempDir& dir) {
  const auto key = dir.file("server.key").string();
  const auto cert = dir.file("server.crt").string();
  const std::string command =
      "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 "
      "-subj /CN=localhost -addext subjectAltName=IP:127.0.0.1 -keyout " +
      key + " -out " + cert + " 2>/dev/null";
  REQUIRE(std::system(command.c_str()) == 0);
  return "tls_server_config:\n  cert_file: " + cert + "\n  key_file: " + key + "\n";
}

}  // namespace

TEST_CASE("Every response is counted by route pattern and status, and every refused password",
          "[http][stats]") {
  const TempDir dir;
  const auto config = dir.write(
      "web.yml", "basic_auth_users:\n  scraper: " + flightrec::testing::bcrypt_hash("pw") + "\n");
  flightrec::config::Config::Web web;
  web.listen_address = "127.0.0.1:0";
  web.roles = {{"scraper", flightrec::config::role_bit(flightrec::config::Role::metrics)}};
  Server server({.listen_address = "127.0.0.1:0",
                 .web_config_file = config.string(),
                 .access = access_policy(web)},
                routes());
  const std::string url = server.url();
  for (int i = 0; i < 2; ++i) CHECK(status(url + "metrics") == "401");
  CHECK(status("-u scraper:wrong " + url + "metrics") == "401");
  CHECK(status("-u mallory:pw " + url + "metrics") == "401");
  CHECK(status("-H 'Authorization: Bearer x' " + url + "metrics") == "401");
  for (int i = 0; i < 3; ++i) CHECK(status("-u scraper:pw " + url + "metrics") == "200");
  for (int i = 0; i < 2; ++i) CHECK(status("-u scraper:pw " + url + "dump") == "403");
  CHECK(status("-u scraper:pw " + url + "nothing-here") == "404");
  CHECK(status("-u scraper:pw -X POST " + url + "metrics") == "405");
  CHECK(status("-u scraper:pw " + url + "boom") == "500");
  // The handler's own status, not the router's: a 404 from a route is that route's.
  web.roles["scraper"] = flightrec::config::kAllRoles;
  server.set_access(access_policy(web));
  CHECK(status("-u scraper:pw " + url + "incidents/missing") == "404");
  // civetweb refuses a request line without a version before anything is routed.
  send_and_wait_close(server.port(), "GET /metrics\r\n\r\n");

  CHECK(responses_text(server.stats()) ==
        "/boom 500 1\n"
        "/dump 403 2\n"
        "/incidents/{id} 404 1\n"
        "/metrics 200 3\n"
        "/metrics 401 5\n"
        "/metrics 405 1\n"
        "none 400 1\n"
        "none 404 1\n");
  const ServerStats& stats = server.stats();
  CHECK(stats.auth_failures(AuthFailure::missing_credentials) == 2);
  CHECK(stats.auth_failures(AuthFailure::wrong_password) == 1);
  CHECK(stats.auth_failures(AuthFailure::unknown_user) == 1);
  CHECK(stats.auth_failures(AuthFailure::malformed_credentials) == 1);
  CHECK(stats.auth_failures(AuthFailure::throttled) == 0);
  CHECK(stats.accepted() == 15);
}

TEST_CASE("The gate counts the connections it closes, by why", "[http][stats]") {
  SECTION("a header not complete within the header timeout") {
    Server server({.listen_address = "127.0.0.1:0", .request_timeout = 300ms}, routes());
    send_and_wait_close(server.port(), "");
    send_and_wait_close(server.port(), "GET /metrics HTTP/1.1\r\n");
    CHECK(server.stats().closes(GateClose::header_timeout) == 2);
    CHECK(server.stats().accepted() == 2);
  }
  SECTION("TLS handshakes that fail, and client certificates refused") {
    const TempDir dir;
    const std::string tls = tls_settings(dir);
    const auto plain_tls = dir.write("tls.yml", tls);
    Server server({.listen_address = "127.0.0.1:0", .web_config_file = plain_tls.string()},
                  routes());
    static_cast<void>(connect_to(server.port()));  // a probe: closed before any handshake
    send_and_wait_close(server.port(), "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n");  // not TLS
    CHECK(server.stats().closes(GateClose::tls_handshake_failed) == 1);
    CHECK(server.stats().auth_failures(AuthFailure::client_certificate) == 0);

    const auto mutual = dir.write(
        "mutual.yml", tls + "  client_auth_type: RequireAndVerifyClientCert\n  client_ca_file: " +
                          dir.file("server.crt").string() + "\n");
    Server strict({.listen_address = "127.0.0.1:0", .web_config_file = mutual.string()}, routes());
    const std::string cacert = "--cacert " + dir.file("server.crt").string() + " ";
    // No client certificate: the handshake fails (curl says how in several ways).
    CHECK_THAT(status(cacert + strict.url() + "metrics"), Catch::Matchers::EndsWith("000"));
    CHECK(strict.stats().closes(GateClose::tls_handshake_failed) == 1);
    CHECK(strict.stats().auth_failures(AuthFailure::client_certificate) == 1);
  }
}

TEST_CASE("Every close reason and refused credential is labelled by its enumerator's name",
          "[http][stats]") {
  CHECK(label(GateClose::header_timeout) == "header_timeout");
  CHECK(label(GateClose::error) == "error");
  CHECK(label(AuthFailure::missing_credentials) == "missing_credentials");
  CHECK(label(AuthFailure::client_certificate) == "client_certificate");
  // The counters are indexed by reason: the last one must have a row, and so a counter.
  CHECK(kGateCloseReasons == static_cast<size_t>(GateClose::error) + 1);
  CHECK(kAuthFailureReasons == static_cast<size_t>(AuthFailure::client_certificate) + 1);
}
