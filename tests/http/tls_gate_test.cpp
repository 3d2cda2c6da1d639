// The connection gate with TLS: it terminates TLS itself, so a client that completes its handshake
// and then sends its header slowly holds no civetweb worker, and every byte of a request and its
// answer passes the gate's relay intact, both ways.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/ssl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "curl.h"
#include "flightrec/common/fd.h"
#include "flightrec/http/server.h"
#include "stderr_capture.h"
#include "temp_dir.h"

using namespace flightrec::http;
using flightrec::Fd;
using flightrec::testing::curl;
using flightrec::testing::TempDir;
using namespace std::chrono_literals;

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

struct FreeSsl {
  void operator()(SSL* ssl) const noexcept { SSL_free(ssl); }
};
struct FreeSslContext {
  void operator()(SSL_CTX* ctx) const noexcept { SSL_CTX_free(ctx); }
};

// A client connection past its TLS handshake (the certificate is not checked: only the gate's
// handling of the connection is under test here).
struct TlsClient {
  Fd sock;
  std::unique_ptr<SSL, FreeSsl> ssl;
};

// `sock` connected to the server and through its handshake.
TlsClient connect_tls(SSL_CTX* ctx, Fd sock, uint16_t port) {
  TlsClient client{std::move(sock), nullptr};
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(::connect(client.sock.get(), reinterpret_cast<const sockaddr*>(&addr), sizeof addr) == 0);
  client.ssl.reset(SSL_new(ctx));
  SSL_set_fd(client.ssl.get(), client.sock.get());
  REQUIRE(SSL_connect(client.ssl.get()) == 1);
  return client;
}

// `receive_buffer` bytes (0: the kernel's default) is all the client takes while not reading.
TlsClient handshaken_client(SSL_CTX* ctx, uint16_t port, int receive_buffer = 0) {
  Fd sock(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (receive_buffer > 0) {
    REQUIRE(setsockopt(sock.get(), SOL_SOCKET, SO_RCVBUF, &receive_buffer, sizeof receive_buffer) ==
            0);
  }
  return connect_tls(ctx, std::move(sock), port);
}

void send_request(const TlsClient& client, const std::string& path) {
  const std::string request = "GET " + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
  REQUIRE(SSL_write(client.ssl.get(), request.data(), static_cast<int>(request.size())) ==
          static_cast<int>(request.size()));
}

// Whether the server has closed the connection, seen without reading what it sent: the reset
// of an abortive close puts the client's socket in TCP_CLOSE.
bool reset_by_server(const TlsClient& client) {
  tcp_info info{};
  socklen_t length = sizeof info;
  REQUIRE(getsockopt(client.sock.get(), IPPROTO_TCP, TCP_INFO, &info, &length) == 0);
  return info.tcpi_state == TCP_CLOSE;
}

// The process's soft descriptor limit lowered to `soft` for its lifetime.
class DescriptorLimit {
 public:
  explicit DescriptorLimit(rlim_t soft) {
    REQUIRE(getrlimit(RLIMIT_NOFILE, &saved_) == 0);
    rlimit lowered = saved_;
    lowered.rlim_cur = soft;
    REQUIRE(setrlimit(RLIMIT_NOFILE, &lowered) == 0);
  }
  ~DescriptorLimit() { setrlimit(RLIMIT_NOFILE, &saved_); }
  DescriptorLimit(const DescriptorLimit&) = delete;
  DescriptorLimit& operator=(const DescriptorLimit&) = delete;

 private:
  rlimit saved_{};
};

// A limit just above the lowest free descriptor number: the next one opened is the last.
rlim_t one_more_descriptor() {
  const Fd lowest_free(::dup(0));
  REQUIRE(lowest_free);
  return static_cast<rlim_t>(lowest_free.get()) + 1;
}

Route hello() {
  return {.path = "/hello",
          .handler = [](const Request&, Response& res) { res.send(200, "text/plain", "hello\n"); }};
}

// Bytes that show a reordered, lost or repeated block: each 8-byte group counts up.
std::string counting_bytes(size_t size) {
  std::string out;
  out.reserve(size + 16);
  for (size_t i = 0; out.size() < size; ++i) {
    char group[17];
    std::snprintf(group, sizeof group, "%07zx\n", i % 0x10000000);
    out += group;
  }
  out.resize(size);
  return out;
}

}  // namespace

TEST_CASE("Over TLS, handshaken clients that send their header slowly hold none of the workers",
          "[http][tls]") {
  const TempDir dir;
  // Two workers: without TLS terminated in the gate, the first two of these clients would hold
  // both for the 10 s header timeout and curl's 3 s would run out.
  Server server(
      {.listen_address = "127.0.0.1:0", .threads = 2, .web_config_file = tls_web_config(dir)},
      {hello()});
  const std::unique_ptr<SSL_CTX, FreeSslContext> ctx(SSL_CTX_new(TLS_client_method()));
  std::vector<TlsClient> held;
  for (int i = 0; i < 20; ++i) {
    held.push_back(handshaken_client(ctx.get(), server.port()));
    const std::string start = "GET /hello HTTP/1.1\r\nHost: x\r\nX-Slow: ";
    REQUIRE(SSL_write(held.back().ssl.get(), start.data(), static_cast<int>(start.size())) > 0);
  }
  const std::string cacert = "--cacert " + dir.file("server.crt").string() + " ";
  for (int i = 0; i < 5; ++i) CHECK(curl("-s " + cacert + server.url() + "hello", 3) == "hello\n");
}

TEST_CASE("A large request and a large answer cross the TLS relay intact", "[http][tls]") {
  const TempDir dir;
  const std::string answer = counting_bytes(5 << 20);
  Route big{.path = "/big", .handler = [&answer](const Request&, Response& res) {
              res.send(200, "application/octet-stream", answer);
            }};
  // Answers what it received, so the test sees the request body as the handler did.
  Route echo{
      .path = "/echo",
      .handler = [](const Request& req,
                    Response& res) { res.send(200, "application/octet-stream", req.body()); },
      .methods = {"POST"},
      .max_body_bytes = size_t{8} << 20};
  Server server({.listen_address = "127.0.0.1:0", .web_config_file = tls_web_config(dir)},
                {big, echo});
  const std::string cacert = "--cacert " + dir.file("server.crt").string() + " ";
  const std::string got = curl("-s " + cacert + server.url() + "big", 20);
  CHECK(got.size() == answer.size());
  const bool answer_intact = got == answer;  // not printed: megabytes
  CHECK(answer_intact);

  const std::string request = counting_bytes(3 << 20);
  const auto sent = dir.write("request.bin", request);
  const std::string echoed =
      curl("-s " + cacert + "--data-binary @" + sent.string() + " " + server.url() + "echo", 20);
  CHECK(echoed.size() == request.size());
  const bool request_intact = echoed == request;
  CHECK(request_intact);

  // A body over the route's bound: the refusal, sent while the client is still sending,
  // reaches it through the relay.
  const auto too_big = dir.write("too-big.bin", counting_bytes(12 << 20));
  CHECK(curl("-s -o /dev/null -w %{http_code} " + cacert + "--data-binary @" + too_big.string() +
                 " " + server.url() + "echo",
             20) == "413");
}

TEST_CASE("Over TLS, OPTIONS * is answered by the gate", "[http][tls]") {
  const TempDir dir;
  Route hello{.path = "/hello", .handler = [](const Request&, Response& res) {
                res.send(200, "text/plain", "hello\n");
              }};
  Server server({.listen_address = "127.0.0.1:0", .web_config_file = tls_web_config(dir)}, {hello});
  const std::string cacert = "--cacert " + dir.file("server.crt").string() + " ";
  CHECK(curl("-s -i -X OPTIONS --request-target '*' " + cacert + server.url(), 3) ==
        "HTTP/1.1 200 OK\r\nAllow: GET, HEAD, POST\r\nContent-Length: 0\r\nConnection: "
        "close\r\n\r\n");
  CHECK(curl("-s " + cacert + server.url() + "hello", 3) == "hello\n");
}

TEST_CASE("With every relay held by a client that stopped reading, a new TLS client is answered",
          "[http][tls]") {
  const TempDir dir;
  const std::string answer = counting_bytes(4 << 20);
  Route big{
      .path = "/big",
      .handler = [&answer](const Request&,
                           Response& res) { res.send(200, "application/octet-stream", answer); },
      .right = Right::read_metrics};
  // The gate bounds its relays at a quarter of the descriptor limit it starts under: 16 here.
  const std::unique_ptr<Server> server = [&] {
    const DescriptorLimit limit(64);
    return std::make_unique<Server>(
        ServerOptions{.listen_address = "127.0.0.1:0", .web_config_file = tls_web_config(dir)},
        std::vector<Route>{big, hello()});
  }();
  const std::unique_ptr<SSL_CTX, FreeSslContext> ctx(SSL_CTX_new(TLS_client_method()));
  std::vector<TlsClient> stalled;
  for (int i = 0; i < 16; ++i) {
    stalled.push_back(handshaken_client(ctx.get(), server->port(), 4096));
    send_request(stalled.back(), "/big");
  }
  std::this_thread::sleep_for(1s);  // each answer fills its client's buffers, and its relay's
  // Without room made, the new relay was refused after its header, for as long as those stay.
  const std::string cacert = "--cacert " + dir.file("server.crt").string() + " ";
  CHECK(curl("-s " + cacert + server->url() + "hello", 3) == "hello\n");
  CHECK(server->stats().closes(GateClose::relay_evicted) == 1);
  CHECK(std::count_if(stalled.begin(), stalled.end(), reset_by_server) == 1);
}

TEST_CASE("A TLS client that stops reading its answer is cut off after the relay timeout",
          "[http][tls]") {
  const TempDir dir;
  const std::string answer = counting_bytes(4 << 20);
  Route big{.path = "/big", .handler = [&answer](const Request&, Response& res) {
              res.send(200, "application/octet-stream", answer);
            }};
  Server server({.listen_address = "127.0.0.1:0",
                 .request_timeout = 1000ms,
                 .web_config_file = tls_web_config(dir)},
                {big});
  const std::unique_ptr<SSL_CTX, FreeSslContext> ctx(SSL_CTX_new(TLS_client_method()));
  // Past civetweb's 1 s on its write, its end of the relay is closed and the rest of the answer
  // waits in the gate for a client that never takes it: without a deadline, for ever.
  std::vector<TlsClient> stalled;
  for (int i = 0; i < 3; ++i) {
    stalled.push_back(handshaken_client(ctx.get(), server.port(), 4096));
    send_request(stalled.back(), "/big");
  }
  const auto begin = std::chrono::steady_clock::now();
  size_t cut = 0;
  while (cut < stalled.size() && std::chrono::steady_clock::now() - begin < 6s) {
    std::this_thread::sleep_for(100ms);
    cut = static_cast<size_t>(std::count_if(stalled.begin(), stalled.end(), reset_by_server));
  }
  CHECK(cut == stalled.size());
  CHECK(std::chrono::steady_clock::now() - begin >= 900ms);
  CHECK(server.stats().closes(GateClose::relay_timeout) == stalled.size());

  // A client that reads slowly but steadily makes progress: it gets its answer whole, over
  // several relay timeouts.
  const std::string slow_answer = counting_bytes(1 << 20);
  Route slow{.path = "/slow", .handler = [&slow_answer](const Request&, Response& res) {
               res.send(200, "application/octet-stream", slow_answer);
             }};
  Server steady_server({.listen_address = "127.0.0.1:0",
                        .request_timeout = 1000ms,
                        .web_config_file = tls_web_config(dir)},
                       {slow});
  const TlsClient reader = handshaken_client(ctx.get(), steady_server.port(), 4096);
  send_request(reader, "/slow");
  std::string got;
  std::array<char, 32768> buffer{};
  for (int n = 1; n > 0;) {
    std::this_thread::sleep_for(100ms);
    n = SSL_read(reader.ssl.get(), buffer.data(), static_cast<int>(buffer.size()));
    if (n > 0) got.append(buffer.data(), static_cast<size_t>(n));
  }
  const bool whole = got.ends_with(slow_answer);  // after the headers
  CHECK(whole);
  CHECK(steady_server.stats().closes(GateClose::relay_timeout) == 0);
}

TEST_CASE("A relay that cannot be set up closes its connection alone, and is counted",
          "[http][tls]") {
  const TempDir dir;
  flightrec::testing::StderrCapture log;  // opens its file before the descriptor limit
  Server server({.listen_address = "127.0.0.1:0", .web_config_file = tls_web_config(dir)},
                {hello()});
  const std::unique_ptr<SSL_CTX, FreeSslContext> ctx(SSL_CTX_new(TLS_client_method()));
  Fd sock(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  const timeval patience{.tv_sec = 3, .tv_usec = 0};
  REQUIRE(setsockopt(sock.get(), SOL_SOCKET, SO_RCVTIMEO, &patience, sizeof patience) == 0);
  {
    // The gate's accept takes the last descriptor: the socket pair the relay needs finds the
    // process out of them, as a busy daemon's gate can for real.
    const DescriptorLimit limit(one_more_descriptor());
    const TlsClient client = connect_tls(ctx.get(), std::move(sock), server.port());
    send_request(client, "/hello");
    std::array<char, 256> buffer{};
    CHECK(SSL_read(client.ssl.get(), buffer.data(), static_cast<int>(buffer.size())) <= 0);
  }
  CHECK(server.stats().closes(GateClose::error) == 1);
  CHECK(log.count(R"(level=error msg="http gate: closed a connection after a failure" count=1 )"
                  R"(names="socketpair: Too many open files")") == 1);
  // The gate goes on: the next client is answered.
  const std::string cacert = "--cacert " + dir.file("server.crt").string() + " ";
  CHECK(curl("-s " + cacert + server.url() + "hello", 3) == "hello\n");
}

TEST_CASE("The gate's failures are one log line per 10 s, and every one is counted in the lines",
          "[http][tls]") {
  const TempDir dir;
  flightrec::testing::StderrCapture log;
  constexpr int kClients = 3;
  {
    Server server({.listen_address = "127.0.0.1:0", .web_config_file = tls_web_config(dir)},
                  {hello()});
    const std::unique_ptr<SSL_CTX, FreeSslContext> ctx(SSL_CTX_new(TLS_client_method()));
    std::vector<Fd> socks;
    for (int i = 0; i < kClients; ++i) {
      socks.emplace_back(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
      const timeval patience{.tv_sec = 3, .tv_usec = 0};
      REQUIRE(setsockopt(socks.back().get(), SOL_SOCKET, SO_RCVTIMEO, &patience, sizeof patience) ==
              0);
    }
    // Each client in turn: the gate's accept takes the last descriptor, and its relay fails. The
    // clients stay open, so that no descriptor of theirs frees room for the next one's relay.
    const DescriptorLimit limit(one_more_descriptor());
    std::vector<TlsClient> clients;
    for (Fd& sock : socks) {
      clients.push_back(connect_tls(ctx.get(), std::move(sock), server.port()));
      send_request(clients.back(), "/hello");
      std::array<char, 256> buffer{};
      CHECK(SSL_read(clients.back().ssl.get(), buffer.data(), static_cast<int>(buffer.size())) <=
            0);
    }
    CHECK(server.stats().closes(GateClose::error) == kClients);
    // The first at once; the others within 10 s are only counted so far.
    CHECK(log.count("http gate: closed a connection after a failure") == 1);
  }  // the server ends: what its gate counted is written
  CHECK(log.count("http gate: closed a connection after a failure") == 2);
  CHECK(log.count(R"(count=2 names="socketpair: Too many open files, socketpair: Too many)") == 1);
}
