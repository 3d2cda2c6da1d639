#include "flightrec/http/request.h"

#include <civetweb.h>

#include "body_deadline.h"
#include "connection_table.h"
#include "flightrec/common/printable.h"
#include "flightrec/http/access.h"

namespace flightrec::http {

std::optional<std::string_view> Request::header(const char* name) const {
  const char* value = mg_get_header(conn_, name);
  if (value == nullptr) return std::nullopt;
  return std::string_view(value);
}

bool Request::allows(Right right) const {
  if (access_ == nullptr) return true;
  return !check_access(*access_, right, path_, user_ ? &*user_ : nullptr).has_value();
}

std::string_view Request::client_address() const {
  const mg_request_info* info = mg_get_request_info(conn_);
  return info != nullptr ? std::string_view(info->remote_addr) : std::string_view{};
}

std::vector<std::string_view> Request::header_values(std::string_view name) const {
  std::vector<std::string_view> values;
  if (conn_ == nullptr) return values;
  const std::string wanted(name);
  const mg_request_info* info = mg_get_request_info(conn_);
  for (int i = 0; i < info->num_headers; ++i) {
    const mg_header& header = info->http_headers[i];
    if (header.name != nullptr && header.value != nullptr &&
        mg_strcasecmp(header.name, wanted.c_str()) == 0) {
      values.emplace_back(header.value);
    }
  }
  return values;
}

bool Request::body_announced() const {
  if (conn_ == nullptr) return false;
  return mg_get_request_info(conn_)->content_length > 0 ||
         mg_get_header(conn_, "Transfer-Encoding") != nullptr;
}

BodyRead Request::read_body(size_t max_bytes, std::chrono::milliseconds timeout) {
  using Clock = std::chrono::steady_clock;
  body_.clear();
  if (conn_ == nullptr) return {};
  const auto deadline = Clock::now() + timeout;
  const mg_request_info* info = mg_get_request_info(conn_);
  // -1 when the request gave no Content-Length (no body, or a chunked one).
  const long long declared = info->content_length;
  const std::optional<long long> announced =
      declared >= 0 ? std::optional<long long>(declared) : std::nullopt;
  if (declared >= 0 && static_cast<unsigned long long>(declared) > max_bytes) {
    return {.end = BodyRead::End::too_large, .declared_bytes = declared};
  }
  const auto ended = [&](BodyRead::End end) {
    const size_t read = body_.size();
    body_.clear();
    return BodyRead{.end = end, .declared_bytes = announced, .read_bytes = read};
  };
  const detail::BodyDeadline watch(
      detail::connection_table().find(info->remote_addr, info->remote_port), deadline);
  char chunk[16384];
  for (;;) {
    // A read cut by the deadline, or one that waited out civetweb's request timeout for nothing,
    // returns what it had, or 0 (-1 in a chunked body): that is lateness, not the client's end.
    if (Clock::now() >= deadline) return ended(BodyRead::End::late);
    const int n = mg_read(conn_, chunk, sizeof chunk);
    if (n <= 0) {
      if (Clock::now() >= deadline) return ended(BodyRead::End::late);
      const bool short_of_length = declared >= 0 && body_.size() < static_cast<size_t>(declared);
      if (n < 0 || short_of_length) return ended(BodyRead::End::cut_short);
      return {.declared_bytes = announced, .read_bytes = body_.size()};
    }
    body_.append(chunk, static_cast<size_t>(n));
    if (body_.size() > max_bytes) {
      body_.clear();
      return {.end = BodyRead::End::too_large};
    }
  }
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

void Response::add_headers(int status, std::string_view content_type,
                           const std::vector<Header>& extra_headers) {
  status_ = status;
  mg_response_header_start(conn_, status);
  mg_response_header_add(conn_, "Content-Type", content_type.data(),
                         static_cast<int>(content_type.size()));
  // civetweb says keep-alive itself otherwise, when the client asked for it.
  if (!keep_alive_) mg_response_header_add(conn_, "Connection", "close", -1);
  for (const auto* list : {&extra_headers, common_headers_}) {
    if (list == nullptr) continue;
    for (const auto& [name, value] : *list) {
      mg_response_header_add(conn_, name.c_str(), value.c_str(), static_cast<int>(value.size()));
    }
  }
}

void Response::send(int status, std::string_view content_type, std::string_view body,
                    const std::vector<Header>& extra_headers) {
  // An error body is text for a person, and often echoes what the client sent (a parser's message
  // quotes the bytes it choked on). Every error leaves through here: whatever a route did not
  // quote is escaped, so the body reaches the client's terminal as printable UTF-8.
  std::string escaped;
  if (status >= 400) {
    escaped = escape_unprintable(body);
    body = escaped;
  }
  started_ = true;
  add_headers(status, content_type, extra_headers);
  const std::string length = std::to_string(body.size());
  mg_response_header_add(conn_, "Content-Length", length.c_str(), -1);
  mg_response_header_send(conn_);
  if (!head_only_ && !body.empty()) mg_write(conn_, body.data(), body.size());
}

void Response::begin(int status, std::string_view content_type,
                     const std::vector<Header>& extra_headers) {
  started_ = true;
  chunked_ = !head_only_;
  add_headers(status, content_type, extra_headers);
  if (chunked_) mg_response_header_add(conn_, "Transfer-Encoding", "chunked", -1);
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

void Response::finish() {
  // civetweb 1.15 closes the socket here, and then skips what it would otherwise do after the
  // handler: read the rest of the body, each read waiting up to its request timeout, to keep
  // the connection for a next request.
  if (!keep_alive_) mg_close_connection(conn_);
}

std::string_view Request::path_value(std::string_view name) const noexcept {
  for (const auto& [key, value] : path_values_) {
    if (key == name) return value;
  }
  return {};
}

}  // namespace flightrec::http
