#pragma once
// The embedded HTTP server: civetweb underneath, kept out of this header. Routes are exact paths
// or path prefixes; only the methods a route names are allowed (405 otherwise). No files are ever
// served from disk: there is no document root.
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

struct mg_connection;

namespace flightrec::http {

class Request {
 public:
  Request(const mg_connection* conn, std::string_view method, std::string_view path,
          std::string_view query)
      : conn_(conn), method_(method), path_(path), query_(query) {}

  [[nodiscard]] std::string_view method() const noexcept { return method_; }
  [[nodiscard]] std::string_view path() const noexcept { return path_; }  // URL-decoded
  [[nodiscard]] std::string_view query() const noexcept { return query_; }
  [[nodiscard]] std::optional<std::string_view> header(const char* name) const;
  // The URL-decoded value of query parameter `name`, if present.
  [[nodiscard]] std::optional<std::string> param(std::string_view name) const;

 private:
  const mg_connection* conn_;
  std::string_view method_;
  std::string_view path_;
  std::string_view query_;
};

using Header = std::pair<std::string, std::string>;

class Response {
 public:
  Response(mg_connection* conn, bool head_only) : conn_(conn), head_only_(head_only) {}

  // The whole response at once, with Content-Length. For HEAD only the headers go out.
  void send(int status, std::string_view content_type, std::string_view body,
            const std::vector<Header>& extra_headers = {});
  // A streamed response (chunked transfer encoding): begin, any number of write, then end.
  void begin(int status, std::string_view content_type,
             const std::vector<Header>& extra_headers = {});
  // False once the client has gone; the handler should stop producing.
  bool write(std::string_view bytes);
  void end();

  [[nodiscard]] bool started() const noexcept { return started_; }

 private:
  mg_connection* conn_;
  bool head_only_;
  bool started_ = false;
  bool chunked_ = false;
};

using Handler = std::function<void(const Request&, Response&)>;

struct Route {
  std::string path;
  Handler handler;
  bool prefix = false;  // match every path under `path` too
  std::vector<std::string> methods{"GET", "HEAD"};
};

struct ServerOptions {
  std::string listen_address = "127.0.0.1:9717";  // host:port, [v6]:port or :port (all interfaces)
  // civetweb serves one connection per thread and holds it for the keep-alive timeout, so this
  // bounds concurrent scrapers and /dump clients before they queue behind idle connections.
  int threads = 32;
  std::chrono::milliseconds request_timeout{10000};
};

// civetweb's listening_ports value for a Prometheus-style listen address; nullopt if malformed.
std::optional<std::string> civetweb_listening_ports(std::string_view listen_address);

class Server {
 public:
  // Starts listening; throws std::runtime_error naming the address when it cannot.
  Server(const ServerOptions& options, std::vector<Route> routes);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  [[nodiscard]] uint16_t port() const noexcept { return port_; }
  // http://host:port/ as a client on this machine would reach it.
  [[nodiscard]] std::string url() const;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
  uint16_t port_ = 0;
  std::string host_;
};

}  // namespace flightrec::http
