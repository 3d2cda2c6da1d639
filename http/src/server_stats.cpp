#include "flightrec/http/server_stats.h"

namespace flightrec::http {

void ServerStats::count_response(std::string_view handler, int status) {
  const std::lock_guard lock(mutex_);
  auto found = responses_.find(handler);
  if (found == responses_.end()) found = responses_.try_emplace(std::string(handler)).first;
  ++found->second[status];
}

void ServerStats::count_close(GateClose reason) noexcept {
  closes_[static_cast<size_t>(reason)].fetch_add(1, std::memory_order_relaxed);
}

void ServerStats::count_auth_failure(AuthFailure reason) noexcept {
  auth_failures_[static_cast<size_t>(reason)].fetch_add(1, std::memory_order_relaxed);
}

std::vector<ServerStats::Responses> ServerStats::responses() const {
  std::vector<Responses> out;
  const std::lock_guard lock(mutex_);
  for (const auto& [handler, by_code] : responses_) {
    for (const auto& [code, count] : by_code) {
      out.push_back({.handler = handler, .code = code, .count = count});
    }
  }
  return out;
}

uint64_t ServerStats::closes(GateClose reason) const noexcept {
  return closes_[static_cast<size_t>(reason)].load(std::memory_order_relaxed);
}

uint64_t ServerStats::auth_failures(AuthFailure reason) const noexcept {
  return auth_failures_[static_cast<size_t>(reason)].load(std::memory_order_relaxed);
}

}  // namespace flightrec::http
