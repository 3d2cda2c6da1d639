#include "flightrec/http/server.h"

#include <civetweb.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cstring>
#include <stdexcept>
#include <thread>

#include "connection_gate.h"
#include "connection_table.h"
#include "flightrec/common/fd.h"
#include "flightrec/common/log.h"
#include "flightrec/common/thread_priority.h"
#include "flightrec/http/request_limiter.h"
#include "flightrec/http/web_config.h"
#include "flightrec/http/web_security.h"
#include "request_path.h"
#include "tls_context.h"

namespace flightrec::http {

struct Server::Impl {
  // Half the workers at most for the routes that serve recordings or act, so the other half
  // stay for /metrics, the landing page and health whatever those routes' readers do.
  Impl(size_t max_requests, int threads)
      : limiter(max_requests, static_cast<size_t>(std::max(threads / 2, 1))) {}
  Router router;
  RequestLimiter limiter;
  std::shared_ptr<ServerStats> stats;
  mg_context* ctx = nullptr;
  // What replaced civetweb's listener, the only way to it (accept_handoff.h), and at most how
  // many ready connections wait in it; or why it could not be made.
  size_t max_queued = 0;
  std::unique_ptr<detail::Doorbell> doorbell;
  std::string doorbell_error;
  std::unique_ptr<detail::ConnectionGate> gate;
  // With TLS: the gate's OpenSSL context and the settings it was built from.
  std::shared_ptr<const detail::TlsContext> tls;
  // Whether the port speaks TLS: set before civetweb starts, kept until a restart.
  bool secure = false;
};

namespace {

int dispatch(mg_connection* conn, void* data) {
  auto& impl = *static_cast<Server::Impl*>(data);
  const mg_request_info* info = mg_get_request_info(conn);
  const std::string_view method = info->request_method ? info->request_method : "";
  const std::string path = detail::decoded_path(info->local_uri ? info->local_uri : "");
  const std::string_view query = info->query_string ? info->query_string : "";
  Response response(conn, method == "HEAD");
  Request request(conn, method, path, query);
  request.set_secure(impl.secure);
  return impl.router.dispatch(std::move(request), response);
}

int log_civetweb(const mg_connection*, const char* message) {
  log::warn("http server", {{"err", message}});
  return 1;
}

// civetweb calls this first in each thread it starts (listener, workers, timer): scrapes and dumps
// run SCHED_BATCH, in the background of the workload (thread_priority.h says why not lower).
void* on_civetweb_thread(const mg_context*, int) {
  static_cast<void>(priority::make_calling_thread_batch());
  return nullptr;
}

// civetweb's init_context: its listener exists and none of its threads runs yet, so the doorbell
// takes the listener's place before anything polls it. Nothing may throw through civetweb's C
// frames: a failure is kept for the constructor to report.
void install_doorbell(const mg_context* ctx) {
  auto& impl = *static_cast<Server::Impl*>(mg_get_user_data(ctx));
  try {
    mg_server_port listening[1]{};
    if (mg_get_server_ports(ctx, 1, listening) != 1) {
      throw std::runtime_error("civetweb opened no listener");
    }
    impl.doorbell = std::make_unique<detail::Doorbell>(static_cast<uint16_t>(listening[0].port),
                                                       impl.max_queued);
  } catch (const std::exception& e) {
    impl.doorbell_error = e.what();
  }
}

// civetweb's own answers to requests it refuses before routing (400 for a malformed request,
// 413 for a header over max_request_size, ...): counted; civetweb then sends its page.
int count_civetweb_error(mg_connection* conn, int status, const char* /*message*/) {
  const auto& impl = *static_cast<const Server::Impl*>(mg_get_user_data(mg_get_context(conn)));
  impl.stats->count_response(kNoRoute, status);
  return 1;
}

// civetweb is about to close the connection's socket: from here its descriptor number may be
// another's (connection_table.h).
void forget_connection(const mg_connection* conn) {
  const mg_request_info* info = mg_get_request_info(conn);
  detail::connection_table().remove(info->remote_addr, info->remote_port);
}

}  // namespace

std::optional<std::string> civetweb_listening_ports(std::string_view address) {
  const size_t colon = address.rfind(':');
  if (colon == std::string_view::npos) return std::nullopt;
  std::string_view host = address.substr(0, colon);
  const std::string_view port_text = address.substr(colon + 1);
  unsigned port = 0;
  const auto [end, ec] =
      std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
  if (ec != std::errc{} || end != port_text.data() + port_text.size() || port > 65535) {
    return std::nullopt;
  }
  if (host.empty()) return std::to_string(port);  // ":9717": every interface, like Prometheus
  if (host == "localhost") host = "127.0.0.1";
  if (host.front() == '[') {
    if (host.back() != ']' || host.size() < 3) return std::nullopt;
    return "[" + std::string(host.substr(1, host.size() - 2)) + "]:" + std::to_string(port);
  }
  if (host.find_first_not_of("0123456789.") != std::string_view::npos) return std::nullopt;
  return std::string(host) + ":" + std::to_string(port);
}

Server::Server(const ServerOptions& options, std::vector<Route> routes)
    : Server(options, [&routes] {
        Router router;
        router.add(std::move(routes));
        return router;
      }()) {}

Server::Server(const ServerOptions& options, Router router)
    : impl_(std::make_unique<Impl>(options.max_requests, options.threads)) {
  impl_->stats = options.stats ? options.stats : std::make_shared<ServerStats>();
  impl_->router = std::move(router);
  impl_->router.set_limiter(&impl_->limiter);
  impl_->router.set_stats(impl_->stats.get());
  impl_->router.set_body_timeout(options.request_timeout);
  const auto ports = civetweb_listening_ports(options.listen_address);
  if (!ports) {
    throw std::runtime_error("web.listen_address: \"" + options.listen_address +
                             "\" is not host:port (examples: 127.0.0.1:9717, [::1]:9717, :9717)");
  }
  // The gate owns the address clients connect to (connection_gate.h); civetweb gets ready
  // connections from it through the doorbell that replaced its own listener.
  Fd listener = detail::open_listener(*ports);
  if (!listener) {
    throw std::runtime_error("cannot listen on " + options.listen_address + ": " +
                             std::strerror(errno));
  }
  if (!options.web_config_file.empty()) use_web_config(options.web_config_file);
  if (auto errors = access_errors(options.access); !errors.empty()) {
    std::string text;
    for (const auto& error : errors) text += (text.empty() ? "" : "; ") + error;
    throw std::runtime_error(text);
  }
  set_access(options.access);
  impl_->max_queued = detail::pending_connections_bound();
  start_civetweb(options);
  impl_->gate = std::make_unique<detail::ConnectionGate>(
      std::move(listener), *impl_->doorbell, *impl_->stats,
      detail::GateOptions{.header_timeout = options.request_timeout,
                          .relay_timeout = options.request_timeout,
                          .max_pending = impl_->max_queued,
                          .tls = impl_->tls});
  port_ = impl_->gate->port();
  const std::string host = ports->substr(0, ports->rfind(':'));
  host_ = ports->find(':') == std::string::npos || host == "0.0.0.0" ? "127.0.0.1"
          : host == "[::]"                                           ? "[::1]"
                                                                     : std::string(host);
}

void Server::start_civetweb(const ServerOptions& options) {
  // civetweb needs a listener to start. install_doorbell replaces it before any of civetweb's
  // threads can accept there: a connection that reaches it meanwhile is reset as it closes.
  const std::string ports = "127.0.0.1:0";
  const std::string threads = std::to_string(options.threads);
  const std::string timeout = std::to_string(options.request_timeout.count());
  // No document_root: nothing is ever served from disk. No tcp_nodelay: the gate sets it on each
  // client's socket (civetweb's would fail, and log, on the socket pairs TLS is relayed through).
  const char* civet_options[] = {"listening_ports", ports.c_str(), "num_threads", threads.c_str(),
                                 "request_timeout_ms", timeout.c_str(), "enable_keep_alive", "yes",
                                 "keep_alive_timeout_ms", "500", "max_request_size", "16384",
                                 // The path is decoded in dispatch() instead (request_path.h).
                                 "decode_url", "no", nullptr};
  mg_callbacks callbacks{};
  callbacks.log_message = log_civetweb;
  callbacks.init_thread = on_civetweb_thread;
  callbacks.init_context = install_doorbell;
  callbacks.http_error = count_civetweb_error;
  callbacks.connection_close = forget_connection;
  mg_init_library(0);  // plain HTTP only: the gate terminates TLS
  impl_->ctx = mg_start(&callbacks, impl_.get(), civet_options);
  if (impl_->ctx == nullptr) {
    mg_exit_library();
    throw std::runtime_error("cannot start the HTTP server for " + options.listen_address +
                             " (see the http server log line above)");
  }
  if (!impl_->doorbell) {
    mg_stop(impl_->ctx);
    mg_exit_library();
    throw std::runtime_error("cannot start the HTTP server for " + options.listen_address + ": " +
                             impl_->doorbell_error);
  }
  mg_set_request_handler(impl_->ctx, "/", dispatch, impl_.get());
}

Server::~Server() {
  impl_->gate.reset();  // no new connections
  // civetweb's master thread polls in 2 s quanta and only then sees the stop flag. Ringing the
  // doorbell wakes that poll, so shutdown takes milliseconds instead of up to 2 s.
  std::atomic<bool> stopped{false};
  std::thread stopper([&] {
    mg_stop(impl_->ctx);
    stopped = true;
  });
  while (!stopped) {
    impl_->doorbell->ring();
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  stopper.join();
  impl_->doorbell.reset();  // civetweb is gone: the connections it never took close
  mg_exit_library();
}

void Server::use_web_config(const std::string& path) {
  auto security = std::make_shared<WebSecurity>(path);
  const auto config = security->config();
  if (config->tls.enabled) {
    auto context = detail::make_tls_context(config->tls, path);
    if (!context) throw std::runtime_error(context.error());
    impl_->tls = *std::move(context);
    impl_->secure = true;
    tls_ = true;
  }
  impl_->router.set_security(std::move(security));
}

Result<PreparedTls> Server::prepare_tls(const TlsServerConfig& wanted) const {
  const auto& security = impl_->router.security();
  if (!security) return PreparedTls{};
  const std::string origin = security->path().string();
  if (wanted.enabled != tls_) {
    log::warn("web config file: turning TLS on or off takes a restart; the port keeps its scheme",
              {{"file", origin}});
    return PreparedTls{};
  }
  if (!tls_ || same_tls_settings(wanted, impl_->tls->settings)) return PreparedTls{};
  auto context = detail::make_tls_context(wanted, origin);
  if (!context) return Error{std::move(context).error()};
  return PreparedTls{*std::move(context)};
}

void Server::install_tls(PreparedTls prepared) {
  if (!prepared.context) return;
  impl_->tls = prepared.context;
  impl_->gate->set_tls(std::move(prepared.context));
  log::info("TLS settings reloaded: new connections use them",
            {{"file", impl_->router.security()->path().string()}});
}

std::vector<std::string> Server::access_errors(const AccessPolicy& policy) const {
  const auto& security = impl_->router.security();
  if (!security) return {};
  return unknown_role_users(policy, *security->config());
}

void Server::set_access(AccessPolicy policy) {
  const auto& security = impl_->router.security();
  if (!policy.user_roles.empty() && (!security || !security->config()->requires_auth())) {
    log::warn(
        "web.roles has no effect: no basic_auth_users in --web.config.file, so every client is "
        "anonymous and gets web.anonymous_roles");
  }
  impl_->router.set_access(std::move(policy));
}

void Server::set_max_requests(size_t limit) { impl_->limiter.set_limit(limit); }

const ServerStats& Server::stats() const noexcept { return *impl_->stats; }

std::string Server::url() const {
  return (tls_ ? "https://" : "http://") + host_ + ":" + std::to_string(port_) + "/";
}

}  // namespace flightrec::http
