#pragma once
// The embedded HTTP server: civetweb underneath, kept out of this header. Every request goes to
// one Router (router.h), which picks the most specific route. No files are ever served from disk:
// there is no document root.
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "flightrec/http/access.h"
#include "flightrec/http/request.h"
#include "flightrec/http/route.h"
#include "flightrec/http/router.h"

namespace flightrec::http {

struct ServerOptions {
  std::string listen_address = "127.0.0.1:9717";  // host:port, [v6]:port or :port (all interfaces)
  // civetweb serves one connection per thread and holds it for the keep-alive timeout, so this
  // bounds concurrent scrapers and /dump clients before they queue behind idle connections.
  int threads = 32;
  std::chrono::milliseconds request_timeout{10000};
  // --web.config.file: TLS, extra headers and basic authentication (web_config.h); "" for none.
  std::string web_config_file;
  // The access roles (access.h); the default lets every client reach every route.
  AccessPolicy access;
};

// civetweb's listening_ports value for a Prometheus-style listen address; nullopt if malformed.
std::optional<std::string> civetweb_listening_ports(std::string_view listen_address);

class Server {
 public:
  // Starts listening; throws std::runtime_error naming the address when it cannot, and with
  // every error when options.access names users the web config lacks.
  Server(const ServerOptions& options, Router router);
  // The same with a router of just these routes.
  Server(const ServerOptions& options, std::vector<Route> routes);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // What is wrong with `policy` against the web config in force (unknown_role_users): a reload
  // checks before it changes anything.
  [[nodiscard]] std::vector<std::string> access_errors(const AccessPolicy& policy) const;
  // Replaces the access roles, as a reload does; requests already running keep theirs.
  void set_access(AccessPolicy policy);

  [[nodiscard]] uint16_t port() const noexcept { return port_; }
  // http://host:port/ (https:// with TLS) as a client on this machine would reach it.
  [[nodiscard]] std::string url() const;

  struct Impl;

 private:
  // Loads the web config (throws on an invalid one), hands it to the router and, when it turns
  // TLS on, marks `ports` for TLS.
  void use_web_config(const std::string& path, std::string& ports);

  std::unique_ptr<Impl> impl_;
  uint16_t port_ = 0;
  std::string host_;
  bool tls_ = false;
};

}  // namespace flightrec::http
