#pragma once
// --web.max-requests: at most N requests at once per route, as node_exporter's flag of that name
// bounds its scrapes; the server answers 503 beyond it. A client that asks and then reads slowly
// holds a civetweb worker until its answer is sent, so without the bound a few dozen of them hold
// every worker a scraper needs (docs/SECURITY.md "Slow and idle clients"). The routes that serve
// recordings or act (`shared` below) also share one bound, smaller than the workers: slow readers
// spread over /dump, /incidents/ID and the viewer must not hold every worker between them.
#include <cstddef>
#include <mutex>
#include <unordered_map>

namespace flightrec::http {

class RequestLimiter {
 public:
  // limit 0: no limit per route; shared_limit 0: no limit across the shared routes.
  RequestLimiter(size_t limit, size_t shared_limit) : limit_(limit), shared_limit_(shared_limit) {}

  // A request in flight on one route: admitted or not, released when it goes out of scope.
  class Slot {
   public:
    Slot(Slot&& other) noexcept;
    Slot(const Slot&) = delete;
    Slot& operator=(const Slot&) = delete;
    Slot& operator=(Slot&&) = delete;
    ~Slot();
    [[nodiscard]] bool admitted() const noexcept { return limiter_ != nullptr; }

   private:
    friend class RequestLimiter;
    Slot(RequestLimiter* limiter, const void* route, bool shared)
        : limiter_(limiter), route_(route), shared_(shared) {}
    RequestLimiter* limiter_;  // null when refused
    const void* route_;
    bool shared_;
  };

  // Any thread (a reload): requests from now on are admitted against `limit`; those in flight stay.
  void set_limit(size_t limit) {
    const std::lock_guard lock(mutex_);
    limit_ = limit;
  }

  // Takes a place among `route`'s requests in flight, and among the shared routes' if `shared`,
  // when both have one free.
  [[nodiscard]] Slot enter(const void* route, bool shared);
  [[nodiscard]] size_t in_flight(const void* route) const;

 private:
  void leave(const void* route, bool shared);

  mutable std::mutex mutex_;
  size_t limit_;  // guarded by mutex_
  const size_t shared_limit_;
  size_t shared_in_flight_ = 0;  // guarded by mutex_
  std::unordered_map<const void*, size_t> in_flight_;
};

}  // namespace flightrec::http
