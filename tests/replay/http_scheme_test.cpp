// A URL of the wrong scheme for its port: replay says which one the server speaks, instead of
// suggesting a client certificate for a connection the server reset.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <string>

#include "flightrec/http/server.h"
#include "flightrec/replay/http_fetch.h"
#include "temp_dir.h"

using namespace flightrec::replay;
using flightrec::testing::TempDir;
namespace http = flightrec::http;

namespace {

// A self-signed certificate for 127.0.0.1 and the web config that serves it.
std::string tls_web_config(const TempDir& dir) {
  const auto key = dir.file("server.key").string();
  const auto cert = dir.file("server.crt").string();
  const std::string command =
      "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 "
      "-subj /CN=localhost -addext subjectAltName=IP:127.0.0.1 -keyout " +
      key + " -out " + cert + " 2>/dev/null";
  REQUIRE(std::system(command.c_str()) == 0);
  return dir
      .write("web.yml", "tls_server_config:\n  cert_file: " + cert + "\n  key_file: " + key + "\n")
      .string();
}

http::Route dump_route() {
  return {"/dump", "a recording", [](const http::Request&, http::Response& response) {
            response.send(200, "application/octet-stream", "FLTREC");
          }};
}

// `url` ("http://127.0.0.1:N/") with its scheme replaced by `scheme`, and /dump as its path.
std::string dump_url(std::string url, std::string_view scheme) {
  return std::string(scheme) + url.substr(url.find("://")) + "dump";
}

}  // namespace

TEST_CASE("plainHttpToAnHttpsPortSaysTheServerSpeaksHttps", "[replay][http]") {
  TempDir dir;
  http::ServerOptions options{"127.0.0.1:0", 2, std::chrono::milliseconds(5000)};
  options.web_config_file = tls_web_config(dir);
  http::Server server(options, {dump_route()});
  const std::string url = dump_url(server.url(), "http");
  const auto fetched = http_get(url);
  REQUIRE_FALSE(fetched.ok());
  const std::string port = url.substr(url.rfind(':') + 1, url.rfind('/') - url.rfind(':') - 1);
  CHECK(fetched.error() == url + ": the server at 127.0.0.1 port " + port +
                               " speaks HTTPS, not plain HTTP: use an https:// URL");
}

TEST_CASE("httpsToAPlainHttpPortSaysTheServerSpeaksPlainHttp", "[replay][http]") {
  http::Server server(http::ServerOptions{"127.0.0.1:0", 2, std::chrono::milliseconds(5000)},
                      {dump_route()});
  const std::string url = dump_url(server.url(), "https");
  const auto fetched = http_get(url);
  REQUIRE_FALSE(fetched.ok());
  CHECK_THAT(fetched.error(), Catch::EndsWith(" speaks plain HTTP, not HTTPS: use an http:// URL"));
  CHECK_THAT(fetched.error(), !Catch::Contains("--cert-file"));
}
