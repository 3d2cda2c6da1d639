// Requests whose body the server does not read: an answer given before it (a refusal) ends the
// connection at once instead of leaving a worker reading a body that may never come; a body
// that does not arrive whole in time is cut off; a body framed two ways is refused; and requests
// whose target is not a path are answered, by the gate, rather than dropped.
#include <catch2/catch.hpp>
#include <chrono>
#include <string>
#include <vector>

#include "curl.h"
#include "flightrec/common/fd.h"
#include "flightrec/http/server.h"
#include "raw_client.h"

using namespace flightrec::http;
using flightrec::Fd;
using flightrec::testing::closed_within;
using flightrec::testing::connect_to;
using flightrec::testing::curl;
using flightrec::testing::read_until_closed;
using flightrec::testing::send_text;
using namespace std::chrono_literals;

namespace {

std::vector<Route> routes() {
  return {
      {.path = "/hello",
       .handler = [](const Request&, Response& res) { res.send(200, "text/plain", "hello\n"); }},
      {.path = "/act",  // takes no body
       .handler = [](const Request&, Response& res) { res.send(202, "text/plain", "acted\n"); },
       .methods = {"POST"}},
      {.path = "/echo",
       .handler = [](const Request& req,
                     Response& res) { res.send(200, "text/plain", std::string(req.body())); },
       .methods = {"POST"},
       .max_body_bytes = 1000},
  };
}

std::string post_header(std::string_view path, std::string_view length) {
  return "POST " + std::string(path) +
         " HTTP/1.1\r\nHost: x\r\nContent-Length: " + std::string(length) + "\r\n\r\n";
}

// The answer to `request` sent alone on a new connection, which must then close.
std::string answer_then_close(uint16_t port, std::string_view request) {
  const Fd sock = connect_to(port);
  send_text(sock, request);
  std::string answer = read_until_closed(sock, 3s);
  CHECK(closed_within(sock, 100ms));
  return answer;
}

}  // namespace

TEST_CASE("An answer sent before the body is read closes the connection at once", "[http]") {
  // Two workers: a refused request whose worker stayed to read the body would hold one of them.
  Server server({.listen_address = "127.0.0.1:0", .threads = 2}, routes());
  std::vector<Fd> held;
  for (const std::string_view path : {"/act", "/echo", "/hello", "/nowhere"}) {
    held.push_back(connect_to(server.port()));
    send_text(held.back(), post_header(path, "100000000"));
    const auto begin = std::chrono::steady_clock::now();
    const std::string answer = read_until_closed(held.back(), 3s);
    INFO(path << ": " << answer);
    CHECK(std::chrono::steady_clock::now() - begin < 1s);
    CHECK_THAT(answer, Catch::Matchers::Contains("\r\nConnection: close\r\n"));
  }
  CHECK_THAT(answer_then_close(server.port(), post_header("/act", "100000000")),
             Catch::Matchers::StartsWith("HTTP/1.1 413"));
  CHECK_THAT(answer_then_close(server.port(), post_header("/hello", "5")),
             Catch::Matchers::StartsWith("HTTP/1.1 405"));
  for (int i = 0; i < 10; ++i) {
    held.push_back(connect_to(server.port()));
    send_text(held.back(), post_header("/act", "100000000"));
  }
  CHECK(curl("-s " + server.url() + "hello", 3) == "hello\n");
}

TEST_CASE("A request whose body was read whole, or that has none, keeps its connection", "[http]") {
  Server server({.listen_address = "127.0.0.1:0"}, routes());
  const Fd sock = connect_to(server.port());
  send_text(sock, post_header("/echo", "3") + "abc" +
                      "GET /hello HTTP/1.1\r\nHost: x\r\n\r\n"
                      "GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  const std::string answers = read_until_closed(sock, 3s);
  CHECK_THAT(answers, Catch::Matchers::Contains("abc"));
  CHECK_THAT(answers, Catch::Matchers::EndsWith("hello\n"));
  CHECK(answers.find("hello\n") != answers.rfind("hello\n"));  // both GETs answered
}

TEST_CASE("A body that does not arrive whole within the request timeout gets 408, then a close",
          "[http]") {
  Server server({.listen_address = "127.0.0.1:0", .request_timeout = 500ms}, routes());
  const Fd trickled = connect_to(server.port());
  send_text(trickled, post_header("/echo", "1000"));
  const auto begin = std::chrono::steady_clock::now();
  std::string answer;
  // A byte every 50 ms: every read gets something, only the deadline ends it.
  while (std::chrono::steady_clock::now() - begin < 3s && answer.empty()) {
    send_text(trickled, "x");
    answer = read_until_closed(trickled, 50ms);
  }
  const auto took = std::chrono::steady_clock::now() - begin;
  CHECK(took >= 450ms);
  CHECK(took < 1500ms);
  CHECK_THAT(answer, Catch::Matchers::StartsWith("HTTP/1.1 408"));
  CHECK_THAT(answer, Catch::Matchers::Contains("\r\nConnection: close\r\n"));
  CHECK_THAT(answer, Catch::Matchers::Contains(" of 1000 arrived within 500 ms;"));
  CHECK(closed_within(trickled, 1s));

  // One that stops: civetweb's read waits the request timeout for it, and then it is late too.
  const std::string stalled = answer_then_close(server.port(), post_header("/echo", "10") + "abc");
  CHECK_THAT(stalled, Catch::Matchers::StartsWith("HTTP/1.1 408"));
  CHECK_THAT(stalled, Catch::Matchers::EndsWith("request body: 3 bytes of 10 arrived within 500 "
                                                "ms; a body must arrive whole within that\n"));
}

TEST_CASE("A body framed more than one way is refused with 400 and the connection closed",
          "[http]") {
  Server server({.listen_address = "127.0.0.1:0"}, routes());
  const auto refused = [&server](std::string_view fields) {
    return answer_then_close(
        server.port(), "POST /echo HTTP/1.1\r\nHost: x\r\n" + std::string(fields) + "\r\nabcde");
  };
  const std::string twice = refused("Content-Length: 5\r\nContent-Length: 50\r\n");
  CHECK_THAT(twice, Catch::Matchers::StartsWith("HTTP/1.1 400"));
  CHECK_THAT(twice, Catch::Matchers::Contains("\r\nConnection: close\r\n"));
  CHECK_THAT(twice, Catch::Matchers::EndsWith(
                        "Content-Length given twice (\"5\", \"50\"); send it once\n"));
  CHECK_THAT(
      refused("Content-Length: +5\r\n"),
      Catch::Matchers::EndsWith("Content-Length \"+5\" is not a number of bytes (digits only)\n"));
  CHECK_THAT(refused("Content-Length: 5\r\nTransfer-Encoding: chunked\r\n"),
             Catch::Matchers::StartsWith("HTTP/1.1 400"));
  CHECK(curl("-s -H 'Content-Length: 5' -H 'Content-Length: 5' --data-binary abcde " +
                 server.url() + "echo -w ' %{http_code}'",
             3) == "Content-Length given twice (\"5\", \"5\"); send it once\n 400");
  CHECK(curl("-s --data-binary abcde " + server.url() + "echo", 3) == "abcde");
}

TEST_CASE("A request whose target is not a path is answered, never dropped", "[http]") {
  Server server({.listen_address = "127.0.0.1:0"}, routes());
  const std::string options =
      answer_then_close(server.port(), "OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n");
  CHECK_THAT(options, Catch::Matchers::StartsWith("HTTP/1.1 200 OK\r\n"));
  CHECK_THAT(options, Catch::Matchers::Contains("\r\nAllow: GET, HEAD, POST\r\n"));
  CHECK(curl("-s -X OPTIONS --request-target '*' -w '%{http_code}' " + server.url(), 3) == "200");
  CHECK(curl("-s --request-target '*' -w ' %{http_code}' " + server.url(), 3) ==
        "request target *: only OPTIONS asks about the server\n 400");
  CHECK(curl("-s --request-target http://x/hello -w ' %{http_code}' " + server.url(), 3) ==
        "request target \"http://x/hello\": not a path; ask for the path alone (GET /metrics, not "
        "GET http://host/metrics)\n 400");
  std::string counted;
  for (const auto& r : server.stats().responses()) {
    counted += r.handler + " " + std::to_string(r.code) + " " + std::to_string(r.count) + "\n";
  }
  CHECK(counted == "none 200 2\nnone 400 2\n");
  CHECK(curl("-s " + server.url() + "hello", 3) == "hello\n");
}
