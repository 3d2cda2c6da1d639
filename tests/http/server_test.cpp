#include "flightrec/http/server.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>

#include "curl.h"

using namespace flightrec::http;

namespace {

std::string curl(const std::string& args) { return flightrec::testing::curl(args, 5); }

std::vector<Route> test_routes() {
  return {
      {.path = "/hello",
       .handler =
           [](const Request& req, Response& res) {
             res.send(200, "text/plain", "hello " + req.param("name").value_or("nobody") + "\n");
           }},
      {.path = "/stream",
       .handler =
           [](const Request&, Response& res) {
             res.begin(200, "text/plain");
             for (int i = 0; i < 3; ++i) res.write("part" + std::to_string(i) + ";");
             res.end();
           }},
      {.path = "/boom",
       .handler = [](const Request&, Response&) { throw std::runtime_error("kaput"); }},
      {.path = "/items/{rest...}",
       .handler = [](const Request& req,
                     Response& res) { res.send(200, "text/plain", std::string(req.path())); }},
      {.path = "/items/{id}/name",
       .handler =
           [](const Request& req, Response& res) {
             res.send(200, "text/plain", "name of " + std::string(req.path_value("id")));
           }},
      {.path = "/-/trigger",
       .handler = [](const Request&, Response& res) { res.send(200, "text/plain", "ok"); },
       .methods = {"POST"}},
      // Echoes the parameter unquoted, as a parser's message might: an error, then as data.
      {.path = "/refuse",
       .handler =
           [](const Request& req, Response& res) {
             res.send(400, "text/plain", "bad name: " + req.param("name").value_or("") + "\n");
           }},
      {.path = "/echo",
       .handler =
           [](const Request& req, Response& res) {
             res.send(200, "text/plain", req.param("name").value_or(""));
           }},
  };
}

}  // namespace

TEST_CASE("Server binds port 0 to a free port and serves a route to curl", "[http]") {
  Server server({.listen_address = "127.0.0.1:0"}, test_routes());
  REQUIRE(server.port() != 0);
  CHECK(server.url() == "http://127.0.0.1:" + std::to_string(server.port()) + "/");
  CHECK(curl(server.url() + "hello?name=a%20b") == "hello a b\n");
}

TEST_CASE("Server answers HEAD with headers only", "[http]") {
  Server server({.listen_address = "127.0.0.1:0"}, test_routes());
  const auto out = curl("-I " + server.url() + "hello");
  CHECK_THAT(out, Catch::Matchers::StartsWith("HTTP/1.1 200"));
  CHECK_THAT(out, Catch::Matchers::Contains("Content-Length: 13"));
  CHECK_THAT(out, !Catch::Matchers::Contains("hello nobody"));
}

TEST_CASE("Server gives 404 for unknown paths and 405 with Allow for wrong methods", "[http]") {
  Server server({.listen_address = "127.0.0.1:0"}, test_routes());
  CHECK_THAT(curl("-i " + server.url() + "nope"), Catch::Matchers::StartsWith("HTTP/1.1 404"));
  const auto post = curl("-i -X POST " + server.url() + "hello");
  CHECK_THAT(post, Catch::Matchers::StartsWith("HTTP/1.1 405"));
  CHECK_THAT(post, Catch::Matchers::Contains("Allow: GET, HEAD"));
  const auto get_trigger = curl("-i " + server.url() + "-/trigger");
  CHECK_THAT(get_trigger, Catch::Matchers::StartsWith("HTTP/1.1 405"));
  CHECK_THAT(curl("-X POST " + server.url() + "-/trigger"), Catch::Matchers::Equals("ok"));
}

TEST_CASE("Server turns a throwing handler into a 500 and keeps serving", "[http]") {
  Server server({.listen_address = "127.0.0.1:0"}, test_routes());
  CHECK_THAT(curl("-i " + server.url() + "boom"), Catch::Matchers::StartsWith("HTTP/1.1 500"));
  CHECK(curl(server.url() + "hello") == "hello nobody\n");
}

TEST_CASE("An error body reaches the client as printable UTF-8, whatever the route echoed",
          "[http]") {
  Server server({.listen_address = "127.0.0.1:0"}, test_routes());
  CHECK(curl(server.url() + "refuse?name=%FF%1B%5D0%3Bpwn%07%0Anext%C3%A9") ==
        "bad name: \\xff\\x1b]0;pwn\\x07\nnext\xc3\xa9\n");
  // Only errors: a response's data goes out as the route made it.
  CHECK(curl(server.url() + "echo?name=%FF%1B") == "\xff\x1b");
}

TEST_CASE("Server streams chunked responses", "[http]") {
  Server server({.listen_address = "127.0.0.1:0"}, test_routes());
  const auto out = curl("-i " + server.url() + "stream");
  CHECK_THAT(out, Catch::Matchers::Contains("Transfer-Encoding: chunked"));
  CHECK_THAT(out, Catch::Matchers::EndsWith("part0;part1;part2;"));
}

TEST_CASE("Prefix routes match sub-paths but not look-alike names", "[http]") {
  Server server({.listen_address = "127.0.0.1:0"}, test_routes());
  CHECK(curl(server.url() + "items/42") == "/items/42");
  CHECK_THAT(curl("-i " + server.url() + "itemsfoo"), Catch::Matchers::StartsWith("HTTP/1.1 404"));
}

TEST_CASE("Server hands a pattern's values to the most specific route's handler", "[http]") {
  Server server({.listen_address = "127.0.0.1:0"}, test_routes());
  CHECK(curl(server.url() + "items/a%20b/name") == "name of a b");
  CHECK(curl(server.url() + "items/42/name/x") == "/items/42/name/x");
}

TEST_CASE("Listen addresses map to civetweb's syntax or are refused", "[http]") {
  CHECK(civetweb_listening_ports("127.0.0.1:9717") == "127.0.0.1:9717");
  CHECK(civetweb_listening_ports(":9717") == "9717");
  CHECK(civetweb_listening_ports("[::1]:9717") == "[::1]:9717");
  CHECK(civetweb_listening_ports("localhost:80") == "127.0.0.1:80");
  CHECK_FALSE(civetweb_listening_ports("9717").has_value());
  CHECK_FALSE(civetweb_listening_ports("127.0.0.1:99999").has_value());
  CHECK_FALSE(civetweb_listening_ports("example.com:80").has_value());
  CHECK_FALSE(civetweb_listening_ports("[::1:80").has_value());
}

TEST_CASE("Server refuses an address it cannot bind, naming it", "[http]") {
  Server first({.listen_address = "127.0.0.1:0"}, test_routes());
  const std::string taken = "127.0.0.1:" + std::to_string(first.port());
  try {
    Server second({.listen_address = taken}, test_routes());
    FAIL("expected the second bind to fail");
  } catch (const std::runtime_error& e) {
    CHECK_THAT(e.what(), Catch::Matchers::Contains(taken));
  }
}

TEST_CASE("Server stops well within a second even after idling", "[http]") {
  auto server =
      std::make_unique<Server>(ServerOptions{.listen_address = "127.0.0.1:0"}, test_routes());
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the listener is deep in its poll
  const auto begin = std::chrono::steady_clock::now();
  server.reset();
  CHECK(std::chrono::steady_clock::now() - begin < std::chrono::milliseconds(500));
}
