#pragma once
// What the web server counts for /metrics (the exporter's HttpCollector): every response by route
// and status, as Prometheus's own prometheus_http_requests_total{handler,code} does; the
// connections the connection gate closed, by why; refused credentials, by kind. Without these a
// flood of 401s, 403s, 503s or dropped connections left no trace. Counted by civetweb's workers
// and the gate's thread, read by scrapes; every label value comes from a fixed set (the routes,
// the status codes the server sends, the reasons below), so the series stay bounded.
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "flightrec/common/enum_names.h"

namespace flightrec::http {

// Why the connection gate closed a connection (docs/SECURITY.md, "Slow and idle clients").
enum class GateClose : uint8_t {
  header_timeout,        // its header (TLS handshake included) not complete in time
  evicted,               // the oldest waiting for its header, closed to make room for a new one
  tls_handshake_failed,  // not TLS, a version or certificate refused, or closed mid-handshake
  relay_timeout,         // a TLS client that took none of its answer for the relay timeout
  relay_evicted,         // the least recently active TLS relay, closed to make room
  overloaded,            // civetweb's queue of ready connections was full
  error,                 // a system call failed for it (epoll_ctl, socketpair, ...): logged
};
// The label values, the enumerators' names, in the enum's order.
inline constexpr EnumName<GateClose> kGateCloseLabels[] = {
    {GateClose::header_timeout, "header_timeout"},
    {GateClose::evicted, "evicted"},
    {GateClose::tls_handshake_failed, "tls_handshake_failed"},
    {GateClose::relay_timeout, "relay_timeout"},
    {GateClose::relay_evicted, "relay_evicted"},
    {GateClose::overloaded, "overloaded"},
    {GateClose::error, "error"}};
static_assert(names_are_distinct(kGateCloseLabels) && rows_follow_values(kGateCloseLabels));
inline constexpr size_t kGateCloseReasons = std::size(kGateCloseLabels);

// Why a client's credentials were not accepted.
enum class AuthFailure : uint8_t {
  missing_credentials,    // no Authorization header (401)
  malformed_credentials,  // not `Basic` with base64 of user:password (401)
  unknown_user,           // a user basic_auth_users does not name (401)
  wrong_password,         // (401)
  throttled,              // not checked: too many password checks waiting for bcrypt (503)
  client_certificate,     // the TLS handshake refused the client's certificate, or its absence
};
inline constexpr EnumName<AuthFailure> kAuthFailureLabels[] = {
    {AuthFailure::missing_credentials, "missing_credentials"},
    {AuthFailure::malformed_credentials, "malformed_credentials"},
    {AuthFailure::unknown_user, "unknown_user"},
    {AuthFailure::wrong_password, "wrong_password"},
    {AuthFailure::throttled, "throttled"},
    {AuthFailure::client_certificate, "client_certificate"}};
static_assert(names_are_distinct(kAuthFailureLabels) && rows_follow_values(kAuthFailureLabels));
inline constexpr size_t kAuthFailureReasons = std::size(kAuthFailureLabels);

[[nodiscard]] constexpr std::string_view label(GateClose reason) noexcept {
  return name_of(kGateCloseLabels, reason);
}
[[nodiscard]] constexpr std::string_view label(AuthFailure reason) noexcept {
  return name_of(kAuthFailureLabels, reason);
}

// The handler label of a response no route answered: a path no route matches, or a request
// civetweb refused before routing (a malformed request line, a header over the size limit).
inline constexpr std::string_view kNoRoute = "none";

class ServerStats {
 public:
  // `handler`: the route's pattern (/incidents/{id}), or kNoRoute.
  void count_response(std::string_view handler, int status);
  void count_accepted() noexcept { accepted_.fetch_add(1, std::memory_order_relaxed); }
  void count_close(GateClose reason) noexcept;
  void count_auth_failure(AuthFailure reason) noexcept;

  struct Responses {
    std::string handler;
    int code = 0;
    uint64_t count = 0;
  };
  // By handler, then code; only pairs that occurred.
  [[nodiscard]] std::vector<Responses> responses() const;
  [[nodiscard]] uint64_t accepted() const noexcept {
    return accepted_.load(std::memory_order_relaxed);
  }
  [[nodiscard]] uint64_t closes(GateClose reason) const noexcept;
  [[nodiscard]] uint64_t auth_failures(AuthFailure reason) const noexcept;

 private:
  mutable std::mutex mutex_;  // responses_: one short lock per answered request
  std::map<std::string, std::map<int, uint64_t>, std::less<>> responses_;  // by handler, code
  std::atomic<uint64_t> accepted_{0};
  std::array<std::atomic<uint64_t>, kGateCloseReasons> closes_{};
  std::array<std::atomic<uint64_t>, kAuthFailureReasons> auth_failures_{};
};

}  // namespace flightrec::http
