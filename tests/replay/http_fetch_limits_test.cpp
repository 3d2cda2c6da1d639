// http_get against servers that misbehave: silent, endless headers, endless bodies. Each raw
// loopback server sends a bounded amount and then closes, so a fetch without limits ends too (with
// the wrong error) instead of hanging the test or eating gigabytes.
#include <netinet/in.h>
#include <sys/socket.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "flightrec/common/fd.h"
#include "flightrec/replay/http_fetch.h"

using namespace flightrec::replay;
using flightrec::Fd;
using namespace std::chrono_literals;

namespace {

Fd loopback_listener(int backlog) {
  Fd fd(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(::bind(fd.get(), reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
  REQUIRE(::listen(fd.get(), backlog) == 0);
  return fd;
}

int port_of(const Fd& fd) {
  sockaddr_in address{};
  socklen_t length = sizeof address;
  ::getsockname(fd.get(), reinterpret_cast<sockaddr*>(&address), &length);
  return ntohs(address.sin_port);
}

// Sends all of `bytes`; false once the client has gone.
bool send_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t sent = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (sent <= 0) return false;
    bytes.remove_prefix(static_cast<size_t>(sent));
  }
  return true;
}

// Accepts one connection on its own thread, reads the request and hands the connection to
// `answer`, then closes it.
class RawServer {
 public:
  explicit RawServer(std::function<void(int)> answer)
      : listener_(loopback_listener(4)), thread_([this, answer = std::move(answer)] {
          const Fd connection(::accept(listener_.get(), nullptr, nullptr));
          if (!connection) return;
          char request[4096];
          if (::recv(connection.get(), request, sizeof request, 0) <= 0) return;
          answer(connection.get());
        }) {}
  ~RawServer() {
    ::shutdown(listener_.get(), SHUT_RDWR);  // wakes accept() if no fetch came
    thread_.join();
  }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_of(listener_)) + "/"; }

 private:
  Fd listener_;
  std::thread thread_;
};

// Stays silent until the client hangs up.
void stay_silent(int fd) {
  char byte = 0;
  while (::recv(fd, &byte, 1, 0) > 0) {
  }
}

constexpr size_t kFloodBytes = size_t{32} << 20;  // far beyond every limit the tests set

void flood_headers(int fd) {
  if (!send_all(fd, "HTTP/1.1 200 OK\r\n")) return;
  const std::string line = "X-A: " + std::string(1000, 'a') + "\r\n";
  for (size_t sent = 0; sent < kFloodBytes && send_all(fd, line);) sent += line.size();
}

std::string chunk(std::string_view data) {
  char size_line[32];
  std::snprintf(size_line, sizeof size_line, "%zx\r\n", data.size());
  return size_line + std::string(data) + "\r\n";
}

// A chunked body of `total` bytes in 1000-byte chunks, the last chunk only if `finish`.
void send_chunked(int fd, size_t total, bool finish) {
  if (!send_all(fd, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")) return;
  std::string pieces;
  for (size_t sent = 0; sent < total; sent += 1000) {
    pieces += chunk(std::string(std::min<size_t>(1000, total - sent), 'x'));
    if (pieces.size() >= 65536 || sent + 1000 >= total) {
      if (!send_all(fd, pieces)) return;
      pieces.clear();
    }
  }
  if (finish) send_all(fd, "0\r\n\r\n");
}

FetchLimits short_limits() {
  FetchLimits limits;
  limits.connect_timeout = 1s;
  limits.read_timeout = 1s;
  limits.max_header_bytes = 4096;
  limits.max_body_bytes = size_t{1} << 20;
  return limits;
}

}  // namespace

TEST_CASE("aServerThatNeverAnswersTimesOut", "[replay][http]") {
  RawServer server(stay_silent);
  const auto start = std::chrono::steady_clock::now();
  const auto fetched = http_get(server.url(), short_limits());
  const auto took = std::chrono::steady_clock::now() - start;
  CHECK(fetched.error() == server.url() + ": timed out after 1 s waiting for the answer");
  CHECK(took >= 900ms);
  CHECK(took < 5s);
}

TEST_CASE("timeoutsBelowASecondAreNamedInSeconds", "[replay][http]") {
  RawServer server(stay_silent);
  FetchLimits limits = short_limits();
  limits.read_timeout = 250ms;
  CHECK(http_get(server.url(), limits).error() ==
        server.url() + ": timed out after 0.25 s waiting for the answer");
}

TEST_CASE("aConnectionTheServerNeverAcceptsTimesOut", "[replay][http]") {
  // A full accept queue makes the kernel drop further SYNs, so connect() neither succeeds nor
  // fails: the connect timeout must end it.
  const Fd listener = loopback_listener(0);
  const int port = port_of(listener);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(static_cast<uint16_t>(port));
  std::vector<Fd> queued;
  for (int i = 0; i < 4; ++i) {
    queued.emplace_back(::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
    // Non-blocking: the connection completes (or not) in the listen queue, not here.
    static_cast<void>(
        ::connect(queued.back().get(), reinterpret_cast<sockaddr*>(&address), sizeof address));
  }
  std::this_thread::sleep_for(100ms);
  FetchLimits limits = short_limits();
  limits.connect_timeout = 500ms;
  const std::string url = "http://127.0.0.1:" + std::to_string(port) + "/dump";
  CHECK(http_get(url, limits).error() ==
        url + ": timed out after 0.5 s connecting to 127.0.0.1 port " + std::to_string(port));
}

TEST_CASE("endlessHeadersStopAtTheHeaderLimit", "[replay][http]") {
  RawServer server(flood_headers);
  CHECK(http_get(server.url(), short_limits()).error() ==
        server.url() + ": response header larger than 4096 bytes");
}

TEST_CASE("anEndlessChunkedBodyStopsAtTheBodyLimit", "[replay][http]") {
  RawServer server([](int fd) { send_chunked(fd, kFloodBytes, false); });
  const auto fetched = http_get(server.url(), short_limits());
  CHECK(fetched.error() == server.url() + ": response body larger than 1048576 bytes");
  CHECK_FALSE(fetched.ok());  // a failed fetch holds no body: what had arrived is freed
}

TEST_CASE("anEndlessBodyWithoutLengthStopsAtTheBodyLimit", "[replay][http]") {
  RawServer server([](int fd) {
    if (!send_all(fd, "HTTP/1.1 200 OK\r\n\r\n")) return;
    const std::string block(65536, 'x');
    for (size_t sent = 0; sent < kFloodBytes && send_all(fd, block);) sent += block.size();
  });
  CHECK(http_get(server.url(), short_limits()).error() ==
        server.url() + ": response body larger than 1048576 bytes");
}

TEST_CASE("aContentLengthAboveTheLimitIsRefusedBeforeReading", "[replay][http]") {
  // The second does not fit in 64 bits.
  const std::string length = GENERATE(as<std::string>{}, "99999999999", "99999999999999999999");
  RawServer server([&length](int fd) {
    send_all(fd, "HTTP/1.1 200 OK\r\nContent-Length: " + length + "\r\n\r\nFLTREC");
    stay_silent(fd);  // a fetch that waited for the body would time out instead
  });
  CHECK(http_get(server.url(), short_limits()).error() ==
        server.url() + ": response body larger than 1048576 bytes (Content-Length: " + length +
            ")");
}

TEST_CASE("aBodyCutShortOfItsContentLengthIsAnError", "[replay][http]") {
  RawServer server(
      [](int fd) { send_all(fd, "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nFLTREC"); });
  CHECK(http_get(server.url(), short_limits()).error() ==
        server.url() + ": response body cut short: 6 of 10 bytes");
}

TEST_CASE("aChunkedBodyOfExactlyTheLimitFitsWithoutOverallocating", "[replay][http]") {
  // Not a power of two, so plain doubling of the buffer would overshoot it.
  constexpr size_t kLimit = 3 << 18;
  RawServer server([](int fd) { send_chunked(fd, kLimit, true); });
  FetchLimits limits = short_limits();
  limits.max_body_bytes = kLimit;
  const auto fetched = http_get(server.url(), limits);
  REQUIRE(fetched.ok());
  CHECK(*fetched == std::string(kLimit, 'x'));
  CHECK(fetched->capacity() <= kLimit);
}

TEST_CASE("aChunkedBodyOneByteOverTheLimitIsRefused", "[replay][http]") {
  constexpr size_t kLimit = 3 << 18;
  RawServer server([](int fd) { send_chunked(fd, kLimit + 1, true); });
  FetchLimits limits = short_limits();
  limits.max_body_bytes = kLimit;
  CHECK(http_get(server.url(), limits).error() ==
        server.url() + ": response body larger than 786432 bytes");
}
