// The server behind its connection gate: connections that send nothing or send their header
// slowly hold no civetweb worker, are closed after the header timeout, and a route answers 503
// beyond max_requests while others still answer.
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include "bcrypt_hash.h"
#include "curl.h"
#include "flightrec/common/fd.h"
#include "flightrec/http/server.h"
#include "raw_client.h"
#include "temp_dir.h"

using namespace flightrec::http;
using flightrec::Fd;
using flightrec::testing::closed_within;
using flightrec::testing::connect_to;
using flightrec::testing::read_until_closed;
using flightrec::testing::send_text;
using namespace std::chrono_literals;

namespace {

// A route whose requests wait until `released`, counting themselves in `waiting`.
Route blocking(std::string path, Right right, std::atomic<int>& waiting,
               const std::shared_future<void>& released) {
  return {.path = std::move(path),
          .handler =
              [&waiting, released](const Request&, Response& res) {
                ++waiting;
                released.wait();
                res.send(200, "text/plain", "done\n");
              },
          .right = right};
}

void wait_for(const std::atomic<int>& count, int wanted) {
  for (int i = 0; i < 500 && count < wanted; ++i) std::this_thread::sleep_for(10ms);
  REQUIRE(count == wanted);
}

Route hello() {
  return {.path = "/hello",
          .handler = [](const Request&, Response& res) { res.send(200, "text/plain", "hello\n"); }};
}

}  // namespace

TEST_CASE("Idle and slow-header connections hold none of the server's workers", "[http]") {
  // Two workers: without the gate, the first two idle connections would hold both for the
  // 10 s header timeout and curl's 3 s would run out.
  Server server({.listen_address = "127.0.0.1:0", .threads = 2}, {hello()});
  std::vector<Fd> held;
  for (int i = 0; i < 20; ++i) held.push_back(connect_to(server.port()));
  for (int i = 0; i < 20; ++i) {
    held.push_back(connect_to(server.port()));
    send_text(held.back(), "GET /hello HTTP/1.1\r\nHost: x\r\nX-Slow: ");
  }
  for (int i = 0; i < 5; ++i) {
    CHECK(flightrec::testing::curl("-s " + server.url() + "hello", 3) == "hello\n");
  }
}

TEST_CASE("A header that arrives in pieces is answered once complete", "[http]") {
  Server server({.listen_address = "127.0.0.1:0"}, {hello()});
  const Fd sock = connect_to(server.port());
  send_text(sock, "GET /hello HTTP/1.1\r\nHo");
  std::this_thread::sleep_for(100ms);
  send_text(sock, "st: x\r\nConnection: close\r\n");
  std::this_thread::sleep_for(100ms);
  send_text(sock, "\r\n");
  const std::string answer = read_until_closed(sock, 3s);
  CHECK_THAT(answer, Catch::Matchers::StartsWith("HTTP/1.1 200"));
  CHECK_THAT(answer, Catch::Matchers::EndsWith("hello\n"));
}

TEST_CASE(
    "A connection that sends nothing, or never ends its header, is closed after the "
    "header timeout",
    "[http]") {
  Server server({.listen_address = "127.0.0.1:0", .request_timeout = 300ms}, {hello()});
  const Fd idle = connect_to(server.port());
  const Fd slow = connect_to(server.port());
  send_text(slow, "GET /hello HTTP/1.1\r\n");
  const auto begin = std::chrono::steady_clock::now();
  CHECK(closed_within(idle, 3s));
  CHECK(closed_within(slow, 3s));
  CHECK(std::chrono::steady_clock::now() - begin >= 250ms);
}

TEST_CASE("Beyond max_requests in flight a route answers 503, and the others still answer",
          "[http]") {
  std::atomic<int> waiting{0};
  std::promise<void> release;
  const std::shared_future<void> released = release.get_future().share();
  Server server({.listen_address = "127.0.0.1:0", .max_requests = 2},
                {blocking("/slow", Right::read_history, waiting, released), hello()});
  const std::string url = server.url();
  std::vector<std::future<std::string>> in_flight;
  for (int i = 0; i < 2; ++i) {
    in_flight.push_back(std::async(
        std::launch::async, [&url] { return flightrec::testing::curl("-s " + url + "slow", 10); }));
  }
  wait_for(waiting, 2);
  CHECK(flightrec::testing::curl("-s -o /dev/null -w %{http_code} " + url + "slow", 3) == "503");
  CHECK(flightrec::testing::curl("-s " + url + "hello", 3) == "hello\n");
  release.set_value();
  for (auto& answer : in_flight) CHECK(answer.get() == "done\n");
  CHECK(flightrec::testing::curl("-s " + url + "slow", 3) == "done\n");
}

TEST_CASE("Clients that fail authentication take no place among a route's requests in flight",
          "[http]") {
  const flightrec::testing::TempDir dir;
  const auto config = dir.write(
      "web.yml", "basic_auth_users:\n  scraper: " + flightrec::testing::bcrypt_hash("a") + "\n");
  std::atomic<int> waiting{0};
  std::promise<void> release;
  const std::shared_future<void> released = release.get_future().share();
  Server server(
      {.listen_address = "127.0.0.1:0", .max_requests = 1, .web_config_file = config.string()},
      {blocking("/slow", Right::read_metrics, waiting, released)});
  const std::string url = server.url() + "slow";
  auto in_flight = std::async(std::launch::async, [&url] {
    return flightrec::testing::curl("-s -u scraper:a " + url, 10);
  });
  wait_for(waiting, 1);
  // The route is full, yet a client without the password is told so, not 503: had it taken a
  // place first, a flood of wrong passwords would keep the scraper's place taken.
  CHECK(flightrec::testing::curl("-s -o /dev/null -w %{http_code} " + url, 3) == "401");
  CHECK(flightrec::testing::curl("-s -o /dev/null -w %{http_code} -u scraper:wrong " + url, 3) ==
        "401");
  CHECK(flightrec::testing::curl("-s -o /dev/null -w %{http_code} -u scraper:a " + url, 3) ==
        "503");
  release.set_value();
  CHECK(in_flight.get() == "done\n");
}

TEST_CASE("The routes that serve recordings share half the workers; /metrics keeps the rest",
          "[http]") {
  std::atomic<int> waiting{0};
  std::promise<void> release;
  const std::shared_future<void> released = release.get_future().share();
  Route scrape = hello();
  scrape.right = Right::read_metrics;
  // 8 workers: at most 4 requests at once across /dump and /incidents, 40 on each alone.
  Server server({.listen_address = "127.0.0.1:0", .threads = 8},
                {blocking("/dump", Right::read_history, waiting, released),
                 blocking("/incidents", Right::read_history, waiting, released), scrape});
  const std::string url = server.url();
  std::vector<std::future<std::string>> in_flight;
  for (const char* path : {"dump", "dump", "incidents", "incidents"}) {
    in_flight.push_back(std::async(std::launch::async, [&url, path] {
      return flightrec::testing::curl("-s " + url + path, 10);
    }));
  }
  wait_for(waiting, 4);
  CHECK(flightrec::testing::curl("-s -o /dev/null -w %{http_code} " + url + "dump", 3) == "503");
  CHECK(flightrec::testing::curl("-s -o /dev/null -w %{http_code} " + url + "incidents", 3) ==
        "503");
  CHECK(flightrec::testing::curl("-s " + url + "hello", 3) == "hello\n");
  release.set_value();
  for (auto& answer : in_flight) CHECK(answer.get() == "done\n");
}
