// The access roles: the decision itself (check_access over a policy built from the `web` section)
// for every combination of authentication, listen address and settings, then the same through a
// real server, where 401 and 403 come from Router::dispatch.
#include "flightrec/http/access.h"

#include <catch2/catch.hpp>
#include <stdexcept>
#include <string>

#include "bcrypt_hash.h"
#include "curl.h"
#include "flightrec/http/server.h"
#include "flightrec/http/web_config.h"
#include "temp_dir.h"

using namespace flightrec::http;
using flightrec::config::Config;
using flightrec::config::kAllRoles;
using flightrec::config::Role;
using flightrec::config::role_bit;

namespace {

using flightrec::testing::bcrypt_hash;

Config::Web web_on(std::string listen_address) {
  Config::Web web;
  web.listen_address = std::move(listen_address);
  return web;
}

// "ok", or the refusal's status and body.
std::string decide(const AccessPolicy& policy, Right right, const std::string* user = nullptr) {
  const auto refusal = check_access(policy, right, "/path", user);
  return refusal ? std::to_string(refusal->status) + " " + refusal->body : "ok";
}

// Which of the four rights `user` (nullptr: anonymous) is allowed, e.g. "anyone metrics".
std::string allowed(const AccessPolicy& policy, const std::string* user = nullptr) {
  std::string out;
  const std::pair<Right, std::string_view> rights[] = {{Right::anyone, "anyone"},
                                                       {Right::read_metrics, "metrics"},
                                                       {Right::read_history, "recordings"},
                                                       {Right::capture, "actions"}};
  for (const auto& [right, name] : rights) {
    if (!check_access(policy, right, "/path", user))
      out += (out.empty() ? "" : " ") + std::string(name);
  }
  return out;
}

std::vector<Route> routes() {
  const auto text = [](std::string body) {
    return [body](const Request&, Response& res) { res.send(200, "text/plain", body + "\n"); };
  };
  return {{.path = "/metrics", .handler = text("metrics"), .right = Right::read_metrics},
          {.path = "/-/healthy", .handler = text("healthy"), .right = Right::anyone},
          {.path = "/dump", .handler = text("dump"), .right = Right::read_history},
          {.path = "/-/trigger",
           .handler = text("trigger"),
           .methods = {"POST"},
           .right = Right::capture}};
}

std::string status(const std::string& args) {
  return flightrec::testing::curl("-o /dev/null -w '%{http_code}' " + args, 5);
}

}  // namespace

TEST_CASE("every right is named as the landing page and docs/SECURITY.md show it",
          "[http][roles]") {
  CHECK(right_name(Right::anyone) == "anyone");
  CHECK(right_name(Right::read_metrics) == "read_metrics");
  CHECK(right_name(Right::read_history) == "read_history");
  CHECK(right_name(Right::capture) == "capture");
}

TEST_CASE("without authentication, a loopback listen address serves every role", "[http][roles]") {
  for (const char* address : {"127.0.0.1:9717", "127.1.2.3:0", "[::1]:9717", "localhost:9717"}) {
    INFO(address);
    CHECK(allowed(access_policy(web_on(address))) == "anyone metrics recordings actions");
  }
}

TEST_CASE("without authentication, any other listen address serves only metrics", "[http][roles]") {
  for (const char* address : {"0.0.0.0:9717", "[::]:9717", "10.0.0.5:9717", "127.example:9717"}) {
    INFO(address);
    CHECK(allowed(access_policy(web_on(address))) == "anyone metrics");
  }
  // The refusal names the role, why it is missing and both settings that grant it.
  CHECK(decide(access_policy(web_on("0.0.0.0:9717")), Right::read_history) ==
        "403 403 Forbidden: /path needs the 'recordings' role; anonymous clients of a "
        "non-loopback listen address get only 'metrics' (set web.anonymous_roles, or configure "
        "basic_auth_users in --web.config.file)\n");
}

TEST_CASE("web.anonymous_roles replaces the default on any address", "[http][roles]") {
  auto web = web_on("0.0.0.0:9717");
  web.anonymous_roles = role_bit(Role::metrics) | role_bit(Role::recordings);
  CHECK(allowed(access_policy(web)) == "anyone metrics recordings");
  CHECK_THAT(decide(access_policy(web), Right::capture),
             Catch::StartsWith("403 403 Forbidden: /path needs the 'actions' role; "
                               "web.anonymous_roles gives anonymous clients [metrics, "
                               "recordings] (set web.anonymous_roles"));
  web = web_on("127.0.0.1:9717");
  web.anonymous_roles = flightrec::config::kNoRoles;
  CHECK(allowed(access_policy(web)) == "anyone");
}

TEST_CASE("with an empty web.roles every authenticated user has every role", "[http][roles]") {
  const std::string alice = "alice";
  CHECK(allowed(access_policy(web_on("0.0.0.0:9717")), &alice) ==
        "anyone metrics recordings actions");
}

TEST_CASE("with web.roles each user has exactly its roles", "[http][roles]") {
  auto web = web_on("0.0.0.0:9717");
  web.roles = {{"scraper", role_bit(Role::metrics)},
               {"oncall", role_bit(Role::metrics) | role_bit(Role::recordings)},
               {"robot", role_bit(Role::actions)}};
  const auto policy = access_policy(web);
  const std::string scraper = "scraper", oncall = "oncall", robot = "robot", stranger = "eve";
  CHECK(allowed(policy, &scraper) == "anyone metrics");
  CHECK(allowed(policy, &oncall) == "anyone metrics recordings");
  CHECK(allowed(policy, &robot) == "anyone actions");
  CHECK(allowed(policy, &stranger) == "anyone");
  CHECK(decide(policy, Right::read_history, &scraper) ==
        "403 403 Forbidden: /path needs the 'recordings' role; user \"scraper\" has [metrics] in "
        "web.roles\n");
  CHECK(decide(policy, Right::read_metrics, &stranger) ==
        "403 403 Forbidden: /path needs the 'metrics' role; user \"eve\" is not in web.roles\n");
}

TEST_CASE("web.open_health false puts the health endpoints under the metrics role",
          "[http][roles]") {
  auto web = web_on("0.0.0.0:9717");
  web.anonymous_roles = role_bit(Role::recordings);
  CHECK(allowed(access_policy(web)) == "anyone recordings");
  web.open_health = false;
  CHECK(allowed(access_policy(web)) == "recordings");
  CHECK_THAT(decide(access_policy(web), Right::anyone),
             Catch::StartsWith("403 403 Forbidden: /path needs the 'metrics' role"));
  web.roles = {{"robot", role_bit(Role::actions)}};
  const std::string robot = "robot";
  CHECK(allowed(access_policy(web), &robot) == "actions");
}

TEST_CASE("users of web.roles must be in basic_auth_users", "[http][roles]") {
  auto web = web_on("127.0.0.1:0");
  web.roles = {{"alice", kAllRoles}, {"bob", kAllRoles}};
  WebConfig config;
  CHECK(unknown_role_users(access_policy(web), config).empty());  // no users: nothing to check
  config.users = {{"alice", "hash"}, {"carol", "hash"}};
  CHECK(unknown_role_users(access_policy(web), config) ==
        std::vector<std::string>{
            "web.roles: user \"bob\" is not in the web config's basic_auth_users"});
}

TEST_CASE("a server answers 401 without credentials and 403 without the role", "[http][roles]") {
  flightrec::testing::TempDir dir;
  const auto config = dir.write("web.yml", "basic_auth_users:\n  scraper: " + bcrypt_hash("a") +
                                               "\n  oncall: " + bcrypt_hash("b") +
                                               "\n  robot: " + bcrypt_hash("c") + "\n");
  auto web = web_on("127.0.0.1:0");
  web.roles = {{"scraper", role_bit(Role::metrics)},
               {"oncall", role_bit(Role::metrics) | role_bit(Role::recordings)},
               {"robot", role_bit(Role::actions)}};
  Server server({.listen_address = "127.0.0.1:0",
                 .web_config_file = config.string(),
                 .access = access_policy(web)},
                routes());
  const std::string url = server.url();
  // status of GET /metrics, GET /dump, POST /-/trigger, GET /-/healthy for `user`
  const auto statuses = [&](const std::string& credentials) {
    return status(credentials + url + "metrics") + " " + status(credentials + url + "dump") + " " +
           status("-X POST " + credentials + url + "-/trigger") + " " +
           status(credentials + url + "-/healthy");
  };
  CHECK(statuses("") == "401 401 401 200");
  CHECK(statuses("-u scraper:a ") == "200 403 403 200");
  CHECK(statuses("-u oncall:b ") == "200 200 403 200");
  CHECK(statuses("-u robot:c ") == "403 403 200 200");
  CHECK(statuses("-u robot:wrong ") == "401 401 401 200");
  CHECK(flightrec::testing::curl("-u scraper:a " + url + "dump", 5) ==
        "403 Forbidden: /dump needs the 'recordings' role; user \"scraper\" has [metrics] in "
        "web.roles\n");

  // A reload's policy takes effect for the next request; one naming an unknown user is refused.
  web.roles["scraper"] = kAllRoles;
  server.set_access(access_policy(web));
  CHECK(statuses("-u scraper:a ") == "200 200 200 200");
  web.roles["mallory"] = kAllRoles;
  CHECK(server.access_errors(access_policy(web)) ==
        std::vector<std::string>{
            "web.roles: user \"mallory\" is not in the web config's basic_auth_users"});
  CHECK_THROWS_WITH(Server({.listen_address = "127.0.0.1:0",
                            .web_config_file = config.string(),
                            .access = access_policy(web)},
                           routes()),
                    "web.roles: user \"mallory\" is not in the web config's basic_auth_users");
}

TEST_CASE("a server without a web config serves anonymous clients their roles", "[http][roles]") {
  auto web = web_on("0.0.0.0:0");  // the policy of a non-loopback address, served on loopback
  Server server({.listen_address = "127.0.0.1:0", .access = access_policy(web)}, routes());
  const std::string url = server.url();
  CHECK(status(url + "metrics") == "200");
  CHECK(status(url + "-/healthy") == "200");
  CHECK(status(url + "dump") == "403");
  CHECK(status("-X POST " + url + "-/trigger") == "403");
  CHECK(status(url + "nothing-here") == "404");
  CHECK_THAT(flightrec::testing::curl(url + "dump", 5),
             Catch::Contains("set web.anonymous_roles, or configure basic_auth_users"));
}

TEST_CASE("a handler learns which stricter routes its client could reach", "[http][roles]") {
  flightrec::testing::TempDir dir;
  const auto config = dir.write("web.yml", "basic_auth_users:\n  scraper: " + bcrypt_hash("a") +
                                               "\n  oncall: " + bcrypt_hash("b") + "\n");
  auto web = web_on("127.0.0.1:0");
  web.roles = {{"scraper", role_bit(Role::metrics)},
               {"oncall", role_bit(Role::metrics) | role_bit(Role::recordings)}};
  // What a page open to `metrics` may show: the history only to who could read it.
  const Route page{.path = "/",
                   .handler =
                       [](const Request& req, Response& res) {
                         res.send(200, "text/plain",
                                  std::string(req.allows(Right::read_history) ? "history" : "-") +
                                      (req.allows(Right::capture) ? " actions" : " -"));
                       },
                   .right = Right::read_metrics};
  Server server({.listen_address = "127.0.0.1:0",
                 .web_config_file = config.string(),
                 .access = access_policy(web)},
                {page});
  CHECK(flightrec::testing::curl("-u scraper:a " + server.url(), 5) == "- -");
  CHECK(flightrec::testing::curl("-u oncall:b " + server.url(), 5) == "history -");

  // Anonymous clients: the roles web.anonymous_roles gives them.
  Server open({.listen_address = "127.0.0.1:0", .access = access_policy(web_on("0.0.0.0:0"))},
              {page});
  CHECK(flightrec::testing::curl(open.url(), 5) == "- -");
  Server loopback({.listen_address = "127.0.0.1:0", .access = access_policy(web)}, {page});
  CHECK(flightrec::testing::curl(loopback.url(), 5) == "history actions");
}
