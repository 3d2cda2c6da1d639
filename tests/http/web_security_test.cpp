// The web config in front of a real server: basic auth in Router::dispatch, the extra headers on
// every response, and the file re-read on change. Driven with curl on loopback.
#include <catch2/catch.hpp>
#include <stdexcept>
#include <string>

#include "bcrypt_hash.h"
#include "curl.h"
#include "flightrec/http/server.h"
#include "flightrec/http/web_config_file.h"
#include "temp_dir.h"

using namespace flightrec::http;

namespace {

using flightrec::testing::bcrypt_hash;

std::string curl(const std::string& args) { return flightrec::testing::curl(args, 5); }

std::vector<Route> routes() {
  const auto text = [](std::string body) {
    return [body](const Request& req, Response& res) {
      res.send(200, "text/plain", body + " " + req.user().value_or("-") + "\n");
    };
  };
  return {{.path = "/metrics", .handler = text("metrics"), .right = Right::read_metrics},
          {.path = "/-/healthy", .handler = text("healthy"), .right = Right::anyone},
          {.path = "/dump", .handler = text("dump")}};
}

const std::string kStatus = "-o /dev/null -w '%{http_code}' ";

}  // namespace

TEST_CASE("basic auth guards every route but the health endpoints", "[http][auth]") {
  flightrec::testing::TempDir dir;
  const auto config = dir.write("web.yml", "basic_auth_users:\n  alice: " + bcrypt_hash("s3cr3t") +
                                               "\nhttp_server_config:\n  headers:\n"
                                               "    X-Frame-Options: deny\n");
  Server server({.listen_address = "127.0.0.1:0", .web_config_file = config.string()}, routes());
  const std::string url = server.url();
  CHECK(curl("-u alice:s3cr3t " + url + "metrics") == "metrics alice\n");
  CHECK(curl("-u alice:s3cr3t " + url + "dump") == "dump alice\n");
  CHECK(curl(kStatus + url + "metrics") == "401");
  CHECK(curl(kStatus + "-u alice:wrong " + url + "metrics") == "401");
  CHECK(curl(kStatus + "-u bob:s3cr3t " + url + "dump") == "401");
  CHECK(curl(kStatus + url + "nothing-here") == "401");  // no route map for strangers
  CHECK(curl(kStatus + "-u alice:s3cr3t " + url + "nothing-here") == "404");
  CHECK(curl(url + "-/healthy") == "healthy -\n");

  const std::string refused = curl("-i " + url + "metrics");
  CHECK_THAT(refused, Catch::Contains("WWW-Authenticate: Basic realm=\"flightrec\""));
  CHECK_THAT(refused, Catch::Contains("X-Frame-Options: deny"));
  CHECK_THAT(curl("-i -u alice:s3cr3t " + url + "metrics"),
             Catch::Contains("X-Frame-Options: deny"));
  CHECK_THAT(curl("-i " + url + "-/healthy"), Catch::Contains("X-Frame-Options: deny"));
}

TEST_CASE("without users, a web config only adds headers", "[http][auth]") {
  flightrec::testing::TempDir dir;
  const auto config = dir.write(
      "web.yml", "http_server_config:\n  headers:\n    X-Content-Type-Options: nosniff\n");
  Server server({.listen_address = "127.0.0.1:0", .web_config_file = config.string()}, routes());
  const std::string out = curl("-i " + server.url() + "dump");
  CHECK_THAT(out, Catch::Contains("X-Content-Type-Options: nosniff"));
  CHECK_THAT(out, Catch::EndsWith("dump -\n"));
}

TEST_CASE("an invalid web config stops the server from starting, naming the error",
          "[http][auth]") {
  flightrec::testing::TempDir dir;
  const auto config = dir.write("web.yml", "basic_auth_users:\n  alice: plain\n");
  CHECK_THROWS_WITH(
      Server({.listen_address = "127.0.0.1:0", .web_config_file = config.string()}, routes()),
      Catch::StartsWith(config.string() + ":2: basic_auth_users.alice: not a bcrypt"));
  const auto tls =
      dir.write("tls.yml", "tls_server_config:\n  cert_file: none.crt\n  key_file: k\n");
  CHECK_THROWS_WITH(
      Server({.listen_address = "127.0.0.1:0", .web_config_file = tls.string()}, routes()),
      Catch::StartsWith(tls.string() + ":2: tls_server_config.cert_file: cannot load " +
                        (dir.path() / "none.crt").string()));
}

TEST_CASE("the web config is re-read when it changes; an invalid version keeps the old one",
          "[http][auth]") {
  flightrec::testing::TempDir dir;
  const auto path =
      dir.write("web.yml", "basic_auth_users:\n  alice: " + bcrypt_hash("one") + "\n");
  WebConfigFile file(path);
  const auto first = file.current();
  CHECK(file.current() == first);  // unchanged: the same version, no re-parse
  dir.write("web.yml", "basic_auth_users:\n  bob: " + bcrypt_hash("two") + "\n");
  const auto second = file.current();
  CHECK(second != first);
  CHECK(second->users.contains("bob"));
  CHECK_FALSE(second->users.contains("alice"));
  dir.write("web.yml", "basic_auth_users:\n  carol: not-a-hash-at-all\n");
  CHECK(file.current() == second);  // invalid: logged, the previous version stays
  CHECK(file.current() == second);

  // Through the server: a user added to the file is accepted by the next request.
  dir.write("web.yml", "basic_auth_users:\n  alice: " + bcrypt_hash("one") + "\n");
  Server server({.listen_address = "127.0.0.1:0", .web_config_file = path.string()}, routes());
  CHECK(curl(kStatus + "-u dave:four " + server.url() + "metrics") == "401");
  dir.write("web.yml", "basic_auth_users:\n  dave: " + bcrypt_hash("four") + "\n");
  CHECK(curl("-u dave:four " + server.url() + "metrics") == "metrics dave\n");
}
