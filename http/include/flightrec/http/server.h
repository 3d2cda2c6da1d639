#pragma once
// The embedded HTTP server: civetweb underneath, kept out of this header, behind a connection
// gate that keeps idle and slow-header clients off its workers (src/connection_gate.h). Every
// request goes to one Router (router.h), which picks the most specific route; at most
// max_requests at once per route. No files are ever served from disk:
// there is no document root.
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "flightrec/common/result.h"
#include "flightrec/http/access.h"
#include "flightrec/http/request.h"
#include "flightrec/http/route.h"
#include "flightrec/http/router.h"
#include "flightrec/http/server_stats.h"
#include "flightrec/http/web_config.h"

namespace flightrec::http {

struct ServerOptions {
  std::string listen_address = "127.0.0.1:9717";  // host:port, [v6]:port or :port (all interfaces)
  // civetweb's workers. A worker holds a connection from its complete header to its close (the
  // connection gate holds it before, on no worker), so this bounds requests being answered,
  // slow readers included: above max_requests, so that requests on one path that read slowly
  // leave workers for the others.
  int threads = 64;
  // The header deadline (the gate's, from accept; civetweb's for a kept-alive connection's next
  // request), civetweb's
  // limit on each write to a client that does not read, and the gate's on a TLS relay whose
  // client reads none of its answer.
  std::chrono::milliseconds request_timeout{10000};
  // Requests in flight per route; more get 503 (web.max_requests). 0: no limit.
  size_t max_requests = 40;
  // --web.config.file: TLS, extra headers and basic authentication (web_config.h); "" for none.
  std::string web_config_file;
  // The access roles (access.h); the default lets every client reach every route.
  AccessPolicy access;
  // Where the server counts responses, gate closes and refused credentials (for /metrics); null:
  // a count of its own, which stats() reads.
  std::shared_ptr<ServerStats> stats;
};

namespace detail {
struct TlsContext;
}

// A reload's TLS settings, built by Server::prepare_tls but not yet in force.
struct PreparedTls {
  std::shared_ptr<const detail::TlsContext> context;  // null: the running settings stay
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
  // Requests in flight per route from now on (web.max_requests, live); 0: no limit.
  void set_max_requests(size_t limit);
  // A reload's first step for TLS, which changes nothing: when `wanted` (the web config's
  // tls_server_config as just read) differs from the running settings, the OpenSSL context it
  // makes, or what is wrong with it (then the reload fails and nothing is installed). TLS cannot
  // be turned on or off live: that is logged, not failed.
  [[nodiscard]] Result<PreparedTls> prepare_tls(const TlsServerConfig& wanted) const;
  // Its last step, once every part of the new configuration is built: new connections are
  // handshaken with the prepared context (those begun keep theirs); none prepared, nothing changes.
  void install_tls(PreparedTls prepared);

  [[nodiscard]] uint16_t port() const noexcept { return port_; }
  [[nodiscard]] const ServerStats& stats() const noexcept;
  // http://host:port/ (https:// with TLS) as a client on this machine would reach it.
  [[nodiscard]] std::string url() const;

  struct Impl;

 private:
  // Loads the web config (throws on an invalid one), hands it to the router and, when it turns
  // TLS on, builds the OpenSSL context the connection gate terminates TLS with.
  void use_web_config(const std::string& path);
  // Starts civetweb on its private loopback port; throws when it cannot.
  void start_civetweb(const ServerOptions& options);

  std::unique_ptr<Impl> impl_;
  uint16_t port_ = 0;
  std::string host_;
  bool tls_ = false;
};

}  // namespace flightrec::http
