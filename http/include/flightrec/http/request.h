#pragma once
// One request and its response, as handlers see them; civetweb stays out of this header.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

struct mg_connection;

namespace flightrec::http {

struct AccessPolicy;  // access.h
enum class Right;     // route.h

// The values a pattern's parameters took in one path, as views into that path.
using PathValues = std::vector<std::pair<std::string_view, std::string_view>>;

// How reading a request body ended: read whole; refused for its length, as the client announced
// it (Content-Length, nothing read) or once a chunked body ran past the bound; not whole by the
// deadline; or ended before its end (the client closed, or a chunked body was malformed).
struct BodyRead {
  enum class End : uint8_t { whole, too_large, late, cut_short };
  End end = End::whole;
  std::optional<long long> declared_bytes;  // the Content-Length, when it gave one
  size_t read_bytes = 0;                    // how much arrived before it ended
};

class Request {
 public:
  Request(mg_connection* conn, std::string_view method, std::string_view path,
          std::string_view query)
      : conn_(conn), method_(method), path_(path), query_(query) {}

  [[nodiscard]] std::string_view method() const noexcept { return method_; }
  [[nodiscard]] std::string_view path() const noexcept { return path_; }  // URL-decoded
  [[nodiscard]] std::string_view query() const noexcept { return query_; }
  [[nodiscard]] std::optional<std::string_view> header(const char* name) const;
  // Every value of header `name` (case-insensitive), in the order sent.
  [[nodiscard]] std::vector<std::string_view> header_values(std::string_view name) const;
  // Whether the client said a body follows (a Content-Length above 0, or Transfer-Encoding).
  [[nodiscard]] bool body_announced() const;
  // The client's IP address as text ("" when unknown): the connection gate hands civetweb the
  // client's own address, not its loopback one.
  [[nodiscard]] std::string_view client_address() const;
  // The URL-decoded value of query parameter `name`, if present.
  [[nodiscard]] std::optional<std::string> param(std::string_view name) const;
  // The request body, as the router read it before the handler ran (Route::max_body_bytes).
  [[nodiscard]] std::string_view body() const noexcept { return body_; }
  // What the route's {name} or {name...} matched in the path; empty for a name it does not have.
  [[nodiscard]] std::string_view path_value(std::string_view name) const noexcept;

  // The user basic authentication accepted; nullopt when the server asks for none.
  [[nodiscard]] const std::optional<std::string>& user() const noexcept { return user_; }
  // Whether the client reached the server over TLS: the scheme of links a page gives to be used
  // outside the browser (a `flightrec replay` command line).
  [[nodiscard]] bool secure() const noexcept { return secure_; }
  // Whether this client could reach a route needing `right` (the access roles, access.h): what a
  // page open to more clients may show of a stricter route's content. True before the router has
  // set the policy, as a router without one lets every client reach every route.
  [[nodiscard]] bool allows(Right right) const;

  // Set by the router once it has matched the path, and authenticated the request.
  void set_path_values(PathValues values) { path_values_ = std::move(values); }
  void set_user(std::string user) { user_ = std::move(user); }
  // Set by the server for a connection the gate terminated TLS on.
  void set_secure(bool secure) noexcept { secure_ = secure; }
  // Set by the router before the handler runs; `policy` must outlive the handler.
  void set_access(const AccessPolicy* policy) noexcept { access_ = policy; }
  // The router: reads the body, up to `max_bytes`, until `timeout` from now has passed (a read in
  // progress then is cut short: body_deadline.h). What the client said or sent beyond either is
  // left unread, so a client cannot make us buffer more, nor hold a worker for longer than
  // `timeout`. The router then closes the connection (Response::set_keep_alive).
  [[nodiscard]] BodyRead read_body(size_t max_bytes, std::chrono::milliseconds timeout);

 private:
  mg_connection* conn_;  // not const: reading the body consumes it
  std::string_view method_;
  std::string_view path_;
  std::string_view query_;
  PathValues path_values_;
  std::optional<std::string> user_;
  std::string body_;
  bool secure_ = false;
  const AccessPolicy* access_ = nullptr;
};

using Header = std::pair<std::string, std::string>;

class Response {
 public:
  Response(mg_connection* conn, bool head_only) : conn_(conn), head_only_(head_only) {}

  // The whole response at once, with Content-Length. For HEAD only the headers go out. The body
  // of an error (status 400 and up) is sent with every byte that is not printable UTF-8, other
  // than newlines, escaped as \xNN (escape_unprintable).
  void send(int status, std::string_view content_type, std::string_view body,
            const std::vector<Header>& extra_headers = {});
  // A streamed response (chunked transfer encoding): begin, any number of write, then end.
  void begin(int status, std::string_view content_type,
             const std::vector<Header>& extra_headers = {});
  // False once the client has gone; the handler should stop producing.
  bool write(std::string_view bytes);
  void end();

  // Off: every answer says Connection: close, and finish() ends the connection, with whatever
  // the client still sends unread. The router turns it off while a request's body is unread, so
  // an answer given before it (a 401, a 413) does not leave civetweb reading, and discarding, a
  // body that may never come.
  void set_keep_alive(bool keep_alive) { keep_alive_ = keep_alive; }
  // Once the answer has been sent: ends the connection when keep-alive is off.
  void finish();

  [[nodiscard]] bool started() const noexcept { return started_; }
  // The status sent (send or begin), 0 before.
  [[nodiscard]] int status() const noexcept { return status_; }

  // Headers every response of this request carries (the web config's http_server_config.headers),
  // whichever of send and begin the handler calls. The list must outlive the response.
  void set_common_headers(const std::vector<Header>* headers) { common_headers_ = headers; }

 private:
  void add_headers(int status, std::string_view content_type,
                   const std::vector<Header>& extra_headers);

  mg_connection* conn_;
  const std::vector<Header>* common_headers_ = nullptr;
  bool head_only_;
  bool keep_alive_ = true;
  bool started_ = false;
  bool chunked_ = false;
  int status_ = 0;
};

}  // namespace flightrec::http
