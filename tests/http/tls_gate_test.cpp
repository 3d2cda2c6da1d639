// The connection gate with TLS: it terminates TLS itself, so a client that completes its handshake
// and then sends its header slowly holds no civetweb worker, and every byte of a request and its
// answer passes the gate's relay intact, both ways.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <openssl/ssl.h>
#include <sys/socket.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "curl.h"
#include "flightrec/common/fd.h"
#include "flightrec/http/server.h"
#include "temp_dir.h"

using namespace flightrec::http;
using flightrec::Fd;
using flightrec::testing::curl;
using flightrec::testing::TempDir;

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

TlsClient handshaken_client(SSL_CTX* ctx, uint16_t port) {
  TlsClient client{Fd(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)), nullptr};
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
