#pragma once
// The router: which route answers a path, most specific first.
//   1. a literal path (/incidents)
//   2. a pattern with {name} segments (/incidents/{id}/view before /incidents/{id}: where two
//      patterns match, the one with a literal at the first segment where they differ wins)
//   3. a pattern ending in {name...} (the prefix form), the longest literal start first
// A path no route matches is a 404; a method the matching route does not name is a 405 with Allow.
// Every request passes through dispatch(): with a web config (set_security), its headers go on
// every response and, when it names basic_auth_users, every route but the health endpoints
// (Right::anyone) needs valid credentials before anything else is answered, 404s included, so
// an unauthenticated client learns nothing of what is served. Then the access roles (access.h):
// the authenticated user's, or an anonymous client's when there are no users, against the role
// the route's Right needs; a request without it gets 403 naming the setting that grants it.
#include <chrono>
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "flightrec/http/access.h"
#include "flightrec/http/request.h"
#include "flightrec/http/request_limiter.h"
#include "flightrec/http/route.h"
#include "flightrec/http/server_stats.h"

namespace flightrec::http {

class WebSecurity;  // web_security.h
struct WebConfig;   // web_config.h

namespace detail {
// One segment of a parsed pattern.
struct Segment {
  enum class Kind { literal, parameter, rest };
  Kind kind = Kind::literal;
  std::string text;  // the literal, or the parameter's name
};
}  // namespace detail

struct RouteMatch {
  const Route* route = nullptr;  // null: no route matches the path (404)
  PathValues values;
};

class Router {
 public:
  // Throws std::invalid_argument for a malformed pattern ("{id" or "{rest...}" before the end)
  // or one that matches exactly the same paths as a route added before.
  void add(Route route);
  void add(std::vector<Route> routes);

  [[nodiscard]] RouteMatch match(std::string_view path) const;

  // Every route added, in the order added: what the landing page lists.
  [[nodiscard]] const std::vector<Route>& routes() const { return routes_; }

  // Answers one request: 400 for a body framed more than one way (body_framing.h), 401/403, 400
  // for a NUL byte (%00) in the path or query, 404, 405 with Allow, 503 beyond the limiter's
  // bounds, 413 for a body over the route's max_body_bytes, 408 for one not whole within the
  // body timeout (400 for one that ended short), or the route's handler (a handler that throws
  // gets a 500 when nothing was sent yet). An answer sent while the body is unread closes the
  // connection. Returns the status sent, for civetweb's bookkeeping, and counts it (set_stats).
  int dispatch(Request request, Response& response) const;

  // How long a route's body may take to arrive whole, from when the router starts reading it.
  void set_body_timeout(std::chrono::milliseconds timeout) { body_timeout_ = timeout; }

  // Bounds the requests in flight (request_limiter.h). Only requests that passed authentication
  // and the access roles take a place: clients that cannot get in cannot fill a route's bound.
  void set_limiter(RequestLimiter* limiter) { limiter_ = limiter; }

  // Counts every response by route pattern and status, and every refused credential, there.
  void set_stats(ServerStats* stats) { stats_ = stats; }

  // Puts the web config's headers and authentication in front of every route.
  void set_security(std::shared_ptr<WebSecurity> security) { security_ = std::move(security); }
  [[nodiscard]] const std::shared_ptr<WebSecurity>& security() const { return security_; }

  // The access roles in force; a router without one lets every client reach every route. Safe
  // while requests are served: each request keeps the policy it started with.
  void set_access(AccessPolicy policy);
  [[nodiscard]] std::shared_ptr<const AccessPolicy> access() const;

 private:
  struct Admission {
    int refused = 0;             // the status sent (401, 403, 503), 0 when the request may go on
    std::string user;            // the authenticated user, "" when none was asked for
    bool authenticated = false;  // basic auth accepted `user`
  };
  // Authentication, then the access roles; a refusal is sent here.
  Admission admit(const Request& request, const Route* route, const WebConfig* web,
                  const AccessPolicy& policy, Response& response) const;
  // dispatch() but for the counting: the status sent.
  int answer(Request request, RouteMatch found, Response& response) const;

  // Swapped by a reload while worker threads read it.
  struct AccessSlot {
    mutable std::mutex mutex;
    std::shared_ptr<const AccessPolicy> policy = std::make_shared<const AccessPolicy>();
  };

  std::shared_ptr<WebSecurity> security_;
  RequestLimiter* limiter_ = nullptr;
  ServerStats* stats_ = nullptr;
  std::chrono::milliseconds body_timeout_{10000};
  std::unique_ptr<AccessSlot> access_ = std::make_unique<AccessSlot>();
  std::vector<Route> routes_;
  std::vector<std::vector<detail::Segment>> patterns_;  // routes_[i]'s pattern, parsed
};

}  // namespace flightrec::http
