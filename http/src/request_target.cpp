#include "request_target.h"

#include "flightrec/common/printable.h"

namespace flightrec::http::detail {
namespace {

// The methods some route takes: a route names its own (405 with Allow otherwise).
constexpr std::string_view kServerMethods = "GET, HEAD, POST";
// Enough of a target to recognise it in an error; a header may hold 16 kB of it.
constexpr size_t kQuotedTargetBytes = 200;

GateAnswer refusal(std::string_view reason) {
  const std::string body = std::string(reason) + "\n";
  return {.status = 400,
          .bytes =
              "HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\n"
              "Content-Length: " +
              std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n" + body};
}

}  // namespace

std::optional<GateAnswer> answer_without_path(std::string_view bytes) {
  const size_t line_end = bytes.find('\n');
  if (line_end == std::string_view::npos) return std::nullopt;
  const std::string_view line = bytes.substr(0, line_end);
  const size_t method_end = line.find(' ');
  if (method_end == std::string_view::npos) return std::nullopt;
  const size_t target_end = line.find(' ', method_end + 1);
  if (target_end == std::string_view::npos) return std::nullopt;
  const std::string_view method = line.substr(0, method_end);
  const std::string_view target = line.substr(method_end + 1, target_end - method_end - 1);
  if (target.empty() || target.front() == '/') return std::nullopt;
  if (target == "*") {
    if (method != "OPTIONS") return refusal("request target *: only OPTIONS asks about the server");
    return GateAnswer{.status = 200,
                      .bytes = "HTTP/1.1 200 OK\r\nAllow: " + std::string(kServerMethods) +
                               "\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"};
  }
  return refusal(
      "request target " + quote_for_error(target, {.max_bytes = kQuotedTargetBytes}) +
      ": not a path; ask for the path alone (GET /metrics, not GET http://host/metrics)");
}

}  // namespace flightrec::http::detail
