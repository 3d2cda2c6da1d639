#include "flightrec/http/server.h"

#include <arpa/inet.h>
#include <civetweb.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <atomic>
#include <charconv>
#include <cstring>
#include <stdexcept>
#include <thread>

#include "flightrec/common/fd.h"
#include "flightrec/common/log.h"

namespace flightrec::http {

struct Server::Impl {
  std::vector<Route> routes;
  mg_context* ctx = nullptr;
  std::string startup_error;
};

namespace {

bool method_allowed(const Route& route, std::string_view method) {
  for (const auto& m : route.methods) {
    if (m == method) return true;
  }
  return false;
}

const Route* find_route(const std::vector<Route>& routes, std::string_view path) {
  for (const auto& route : routes) {
    if (path == route.path) return &route;
  }
  for (const auto& route : routes) {
    if (route.prefix && path.starts_with(route.path) && path.size() > route.path.size() &&
        (route.path.ends_with('/') || path[route.path.size()] == '/')) {
      return &route;
    }
  }
  return nullptr;
}

std::string join_methods(const std::vector<std::string>& methods) {
  std::string out;
  for (const auto& m : methods) {
    if (!out.empty()) out += ", ";
    out += m;
  }
  return out;
}

int dispatch(mg_connection* conn, void* data) {
  const auto& impl = *static_cast<const Server::Impl*>(data);
  const mg_request_info* info = mg_get_request_info(conn);
  const std::string_view method = info->request_method ? info->request_method : "";
  const std::string_view path = info->local_uri ? info->local_uri : "";
  const std::string_view query = info->query_string ? info->query_string : "";
  Request request(conn, method, path, query);
  Response response(conn, method == "HEAD");

  const Route* route = find_route(impl.routes, path);
  if (route == nullptr) {
    response.send(404, "text/plain; charset=utf-8", "404 page not found\n");
    return 404;
  }
  if (!method_allowed(*route, method)) {
    response.send(405, "text/plain; charset=utf-8",
                  "method " + std::string(method) + " not allowed on " + std::string(path) + "\n",
                  {{"Allow", join_methods(route->methods)}});
    return 405;
  }
  try {
    route->handler(request, response);
  } catch (const std::exception& e) {
    log::error("request handler failed", {{"path", std::string(path)}, {"err", e.what()}});
    if (!response.started()) response.send(500, "text/plain; charset=utf-8", "internal error\n");
    return 500;
  }
  return 200;
}

int log_civetweb(const mg_connection*, const char* message) {
  log::warn("http server", {{"err", message}});
  return 1;
}

// Opens and closes one TCP connection to the listener; failures do not matter.
void poke_listener(const std::string& host, uint16_t port) {
  const bool v6 = host.starts_with('[');
  Fd sock(::socket(v6 ? AF_INET6 : AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (!sock) return;
  if (v6) {
    sockaddr_in6 addr{};
    addr.sin6_family = AF_INET6;
    addr.sin6_port = htons(port);
    const std::string bare = host.substr(1, host.size() - 2);
    if (inet_pton(AF_INET6, bare.c_str(), &addr.sin6_addr) != 1) return;
    ::connect(sock.get(), reinterpret_cast<const sockaddr*>(&addr), sizeof addr);
  } else {
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    if (inet_pton(AF_INET, host.c_str(), &addr.sin_addr) != 1) return;
    ::connect(sock.get(), reinterpret_cast<const sockaddr*>(&addr), sizeof addr);
  }
}

}  // namespace

std::optional<std::string_view> Request::header(const char* name) const {
  const char* value = mg_get_header(conn_, name);
  if (value == nullptr) return std::nullopt;
  return std::string_view(value);
}

std::optional<std::string> Request::param(std::string_view name) const {
  std::string_view rest = query_;
  while (!rest.empty()) {
    const size_t amp = rest.find('&');
    const std::string_view pair = rest.substr(0, amp);
    rest = amp == std::string_view::npos ? std::string_view{} : rest.substr(amp + 1);
    const size_t eq = pair.find('=');
    if (pair.substr(0, eq) != name) continue;
    const std::string_view raw =
        eq == std::string_view::npos ? std::string_view{} : pair.substr(eq + 1);
    std::string decoded(raw.size() + 1, '\0');
    const int n = mg_url_decode(raw.data(), static_cast<int>(raw.size()), decoded.data(),
                                static_cast<int>(decoded.size()), 1);
    decoded.resize(n < 0 ? 0 : static_cast<size_t>(n));
    return decoded;
  }
  return std::nullopt;
}

void Response::send(int status, std::string_view content_type, std::string_view body,
                    const std::vector<Header>& extra_headers) {
  started_ = true;
  mg_response_header_start(conn_, status);
  mg_response_header_add(conn_, "Content-Type", content_type.data(),
                         static_cast<int>(content_type.size()));
  const std::string length = std::to_string(body.size());
  mg_response_header_add(conn_, "Content-Length", length.c_str(), -1);
  for (const auto& [name, value] : extra_headers) {
    mg_response_header_add(conn_, name.c_str(), value.c_str(), static_cast<int>(value.size()));
  }
  mg_response_header_send(conn_);
  if (!head_only_ && !body.empty()) mg_write(conn_, body.data(), body.size());
}

void Response::begin(int status, std::string_view content_type,
                     const std::vector<Header>& extra_headers) {
  started_ = true;
  chunked_ = !head_only_;
  mg_response_header_start(conn_, status);
  mg_response_header_add(conn_, "Content-Type", content_type.data(),
                         static_cast<int>(content_type.size()));
  if (chunked_) mg_response_header_add(conn_, "Transfer-Encoding", "chunked", -1);
  for (const auto& [name, value] : extra_headers) {
    mg_response_header_add(conn_, name.c_str(), value.c_str(), static_cast<int>(value.size()));
  }
  mg_response_header_send(conn_);
}

bool Response::write(std::string_view bytes) {
  if (!chunked_ || bytes.empty()) return chunked_;
  return mg_send_chunk(conn_, bytes.data(), static_cast<unsigned>(bytes.size())) > 0;
}

void Response::end() {
  if (chunked_) mg_send_chunk(conn_, "", 0);
  chunked_ = false;
}

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
    : impl_(std::make_unique<Impl>()) {
  impl_->routes = std::move(routes);
  const auto ports = civetweb_listening_ports(options.listen_address);
  if (!ports) {
    throw std::runtime_error("web.listen_address: \"" + options.listen_address +
                             "\" is not host:port (examples: 127.0.0.1:9717, [::1]:9717, :9717)");
  }
  const std::string threads = std::to_string(options.threads);
  const std::string timeout = std::to_string(options.request_timeout.count());
  // No document_root: nothing is ever served from disk.
  const char* civet_options[] = {"listening_ports",
                                 ports->c_str(),
                                 "num_threads",
                                 threads.c_str(),
                                 "request_timeout_ms",
                                 timeout.c_str(),
                                 "enable_keep_alive",
                                 "yes",
                                 "keep_alive_timeout_ms",
                                 "500",
                                 // Headers and body go out in separate writes; without this,
                                 // Nagle holds the body for the client's delayed ACK (40 ms).
                                 "tcp_nodelay",
                                 "1",
                                 "max_request_size",
                                 "16384",
                                 nullptr};
  mg_callbacks callbacks{};
  callbacks.log_message = log_civetweb;
  mg_init_library(0);
  impl_->ctx = mg_start(&callbacks, nullptr, civet_options);
  if (impl_->ctx == nullptr) {
    mg_exit_library();
    throw std::runtime_error("cannot listen on " + options.listen_address +
                             " (address in use, or not an address of this host?)");
  }
  mg_set_request_handler(impl_->ctx, "/", dispatch, impl_.get());
  mg_server_port listening[4]{};
  if (mg_get_server_ports(impl_->ctx, 4, listening) > 0) {
    port_ = static_cast<uint16_t>(listening[0].port);
  }
  const std::string host = ports->substr(0, ports->rfind(':'));
  host_ = ports->find(':') == std::string::npos || host == "0.0.0.0" ? "127.0.0.1"
          : host == "[::]"                                           ? "[::1]"
                                                                     : std::string(host);
}

Server::~Server() {
  // civetweb's listener polls in 2 s quanta and only then sees the stop flag. Connecting to our
  // own port wakes that poll, so shutdown takes milliseconds instead of up to 2 s.
  std::atomic<bool> stopped{false};
  std::thread stopper([&] {
    mg_stop(impl_->ctx);
    stopped = true;
  });
  while (!stopped) {
    poke_listener(host_, port_);
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  stopper.join();
  mg_exit_library();
}

std::string Server::url() const { return "http://" + host_ + ":" + std::to_string(port_) + "/"; }

}  // namespace flightrec::http
