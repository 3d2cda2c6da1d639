#include "flightrec/http/request_limiter.h"

#include <utility>

namespace flightrec::http {

RequestLimiter::Slot::Slot(Slot&& other) noexcept
    : limiter_(std::exchange(other.limiter_, nullptr)), route_(other.route_) {}

RequestLimiter::Slot::~Slot() {
  if (limiter_ != nullptr) limiter_->leave(route_);
}

RequestLimiter::Slot RequestLimiter::enter(const void* route) {
  const std::lock_guard lock(mutex_);
  size_t& count = in_flight_[route];
  if (limit_ != 0 && count >= limit_) return {nullptr, route};
  ++count;
  return {this, route};
}

size_t RequestLimiter::in_flight(const void* route) const {
  const std::lock_guard lock(mutex_);
  const auto it = in_flight_.find(route);
  return it == in_flight_.end() ? 0 : it->second;
}

void RequestLimiter::leave(const void* route) {
  const std::lock_guard lock(mutex_);
  --in_flight_[route];
}

}  // namespace flightrec::http
