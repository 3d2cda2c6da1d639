#include "flightrec/http/request_limiter.h"

#include <utility>

namespace flightrec::http {

RequestLimiter::Slot::Slot(Slot&& other) noexcept
    : limiter_(std::exchange(other.limiter_, nullptr)),
      route_(other.route_),
      shared_(other.shared_) {}

RequestLimiter::Slot::~Slot() {
  if (limiter_ != nullptr) limiter_->leave(route_, shared_);
}

RequestLimiter::Slot RequestLimiter::enter(const void* route, bool shared) {
  const std::lock_guard lock(mutex_);
  size_t& count = in_flight_[route];
  if (limit_ != 0 && count >= limit_) return {nullptr, route, shared};
  if (shared && shared_limit_ != 0 && shared_in_flight_ >= shared_limit_) {
    return {nullptr, route, shared};
  }
  ++count;
  if (shared) ++shared_in_flight_;
  return {this, route, shared};
}

size_t RequestLimiter::in_flight(const void* route) const {
  const std::lock_guard lock(mutex_);
  const auto it = in_flight_.find(route);
  return it == in_flight_.end() ? 0 : it->second;
}

void RequestLimiter::leave(const void* route, bool shared) {
  const std::lock_guard lock(mutex_);
  --in_flight_[route];
  if (shared) --shared_in_flight_;
}

}  // namespace flightrec::http
