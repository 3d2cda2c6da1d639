#include "flightrec/http/router.h"

#include <algorithm>
#include <chrono>
#include <optional>
#include <stdexcept>

#include "flightrec/common/log.h"
#include "flightrec/common/printable.h"
#include "flightrec/http/body_framing.h"
#include "flightrec/http/web_security.h"

namespace flightrec::http {
namespace {

using detail::Segment;

constexpr std::string_view kText = "text/plain; charset=utf-8";

// Literal paths first, then patterns with parameters, then the prefix form.
int rank(const std::vector<Segment>& pattern) {
  if (!pattern.empty() && pattern.back().kind == Segment::Kind::rest) return 2;
  const bool literal = std::all_of(pattern.begin(), pattern.end(), [](const auto& segment) {
    return segment.kind == Segment::Kind::literal;
  });
  return literal ? 0 : 1;
}

bool same_paths(const std::vector<Segment>& a, const std::vector<Segment>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const auto& x, const auto& y) {
    return x.kind == y.kind && (x.kind != Segment::Kind::literal || x.text == y.text);
  });
}

std::string join_methods(const std::vector<std::string>& methods) {
  std::string out;
  for (const auto& m : methods) {
    if (!out.empty()) out += ", ";
    out += m;
  }
  return out;
}

std::vector<Segment> parse_pattern(const std::string& pattern) {
  if (!pattern.starts_with('/')) {
    throw std::invalid_argument("route " + pattern + ": a pattern starts with /");
  }
  std::vector<Segment> segments;
  std::string_view rest = std::string_view(pattern).substr(1);
  while (true) {
    const size_t slash = rest.find('/');
    const std::string_view text = rest.substr(0, slash);
    if (!segments.empty() && segments.back().kind == Segment::Kind::rest) {
      throw std::invalid_argument("route " + pattern + ": {name...} must be the last segment");
    }
    Segment segment{.kind = Segment::Kind::literal, .text = std::string(text)};
    if (text.starts_with('{') && text.ends_with('}')) {
      std::string_view name = text.substr(1, text.size() - 2);
      segment.kind = Segment::Kind::parameter;
      if (name.ends_with("...")) {
        name.remove_suffix(3);
        segment.kind = Segment::Kind::rest;
      }
      segment.text = std::string(name);
    }
    if (segment.text.find_first_of("{}") != std::string::npos ||
        (segment.kind != Segment::Kind::literal && segment.text.empty())) {
      throw std::invalid_argument("route " + pattern + ": malformed segment \"" +
                                  std::string(text) + "\"");
    }
    segments.push_back(std::move(segment));
    if (slash == std::string_view::npos) return segments;
    rest.remove_prefix(slash + 1);
  }
}

// Both match the same path, so among patterns of rank 1 they have as many segments; among
// prefixes the longer literal start wins. Then a literal beats a parameter at the first segment
// where they differ.
bool more_specific(const std::vector<Segment>& a, const std::vector<Segment>& b) {
  if (rank(a) != rank(b)) return rank(a) < rank(b);
  if (a.size() != b.size()) return a.size() > b.size();
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].kind != b[i].kind) return a[i].kind == Segment::Kind::literal;
  }
  return false;
}

bool matches(const std::vector<Segment>& pattern, std::string_view path, PathValues& values) {
  values.clear();
  if (!path.starts_with('/')) return false;
  size_t pos = 1;  // where the current segment of `path` starts
  for (const auto& segment : pattern) {
    if (pos > path.size()) return false;  // the path has fewer segments
    if (segment.kind == Segment::Kind::rest) {
      const std::string_view value = path.substr(pos);
      if (value.empty()) return false;
      values.emplace_back(segment.text, value);
      return true;
    }
    const size_t end = std::min(path.find('/', pos), path.size());
    const std::string_view piece = path.substr(pos, end - pos);
    if (segment.kind == Segment::Kind::literal && piece != segment.text) return false;
    if (segment.kind == Segment::Kind::parameter) {
      if (piece.empty()) return false;
      values.emplace_back(segment.text, piece);
    }
    pos = end + 1;
  }
  return pos == path.size() + 1;  // and no segment is left over
}

// A NUL byte ends the text for civetweb and every C string after it: a request that holds one
// asks for something other than what would be served, so it is refused.
Status check_no_nul(const Request& request) {
  if (request.path().find('\0') != std::string_view::npos) {
    return Error{"the path holds a NUL byte (%00): " + quote_for_error(request.path())};
  }
  // The query is decoded parameter by parameter, later: %00 is the only way to a NUL in it.
  if (request.query().find("%00") != std::string_view::npos) {
    return Error{"the query holds a NUL byte (%00): " + quote_for_error(request.query())};
  }
  return {};
}

// A body that did not arrive whole: 408 when the deadline passed, 400 when it ended short.
std::pair<int, std::string> unfinished_body(const BodyRead& read,
                                            std::chrono::milliseconds timeout) {
  std::string text = "request body: " + std::to_string(read.read_bytes) + " bytes";
  if (read.declared_bytes) text += " of " + std::to_string(*read.declared_bytes);
  if (read.end == BodyRead::End::late) {
    return {408, text + " arrived within " + std::to_string(timeout.count()) +
                     " ms; a body must arrive whole within that\n"};
  }
  return {400, text +
                   " arrived before it ended (the client stopped sending, or its chunked "
                   "encoding is malformed)\n"};
}

std::string body_refusal(const Route& route, const BodyRead& read) {
  std::string text = "request body: ";
  if (read.declared_bytes) {
    text += std::to_string(*read.declared_bytes) + " bytes";
  } else {
    text += route.max_body_bytes == 0
                ? "not empty"
                : "more than " + std::to_string(route.max_body_bytes) + " bytes";
  }
  text += route.max_body_bytes == 0
              ? "; this route takes none"
              : "; this route takes at most " + std::to_string(route.max_body_bytes) + " bytes";
  return text + "\n";
}

}  // namespace

void Router::add(Route route) {
  auto pattern = parse_pattern(route.path);
  for (size_t i = 0; i < patterns_.size(); ++i) {
    if (same_paths(patterns_[i], pattern)) {
      throw std::invalid_argument("route " + route.path + " matches the same paths as " +
                                  routes_[i].path);
    }
  }
  routes_.push_back(std::move(route));
  patterns_.push_back(std::move(pattern));
}

void Router::add(std::vector<Route> routes) {
  for (auto& route : routes) add(std::move(route));
}

RouteMatch Router::match(std::string_view path) const {
  RouteMatch best;
  const std::vector<Segment>* best_pattern = nullptr;
  PathValues values;
  for (size_t i = 0; i < routes_.size(); ++i) {
    if (!matches(patterns_[i], path, values)) continue;
    if (best_pattern == nullptr || more_specific(patterns_[i], *best_pattern)) {
      best = {.route = &routes_[i], .values = values};
      best_pattern = &patterns_[i];
    }
  }
  return best;
}

void Router::set_access(AccessPolicy policy) {
  auto next = std::make_shared<const AccessPolicy>(std::move(policy));
  const std::lock_guard lock(access_->mutex);
  access_->policy = std::move(next);
}

std::shared_ptr<const AccessPolicy> Router::access() const {
  const std::lock_guard lock(access_->mutex);
  return access_->policy;
}

Router::Admission Router::admit(const Request& request, const Route* route, const WebConfig* web,
                                const AccessPolicy& policy, Response& response) const {
  if (route != nullptr && !needed_role(route->right, policy)) return {};  // open to probes
  Admission admission;
  const bool authenticating = web != nullptr && web->requires_auth();
  if (authenticating) {
    auto [user, failure] =
        security_->authenticate(*web, request.header("Authorization"), request.client_address());
    if (failure && stats_ != nullptr) stats_->count_auth_failure(*failure);
    if (failure == AuthFailure::throttled) {
      constexpr int kUnavailable = 503;
      response.send(kUnavailable, kText, "too many password checks in flight; retry\n",
                    {{"Retry-After", "1"}});
      return {.refused = kUnavailable, .user = {}};
    }
    if (!user) {
      response.send(401, kText, "401 Unauthorized\n",
                    {{"WWW-Authenticate", "Basic realm=\"flightrec\""}});
      return {.refused = 401, .user = {}};
    }
    admission.user = std::move(*user);
    admission.authenticated = true;
  }
  if (route == nullptr) return admission;  // a 404, for whoever got this far
  const auto refusal = check_access(policy, route->right, request.path(),
                                    authenticating ? &admission.user : nullptr);
  if (refusal) {
    response.send(refusal->status, kText, refusal->body);
    return {.refused = refusal->status, .user = {}};
  }
  return admission;
}

int Router::dispatch(Request request, Response& response) const {
  auto found = match(request.path());
  const std::string_view handler = found.route != nullptr ? found.route->path : kNoRoute;
  const int status = answer(std::move(request), std::move(found), response);
  if (stats_ != nullptr) stats_->count_response(handler, status);
  response.finish();
  return status;
}

int Router::answer(Request request, RouteMatch found, Response& response) const {
  // Held for the whole request: the response's common headers point into it.
  const std::shared_ptr<const WebConfig> web = security_ ? security_->config() : nullptr;
  if (web) response.set_common_headers(&web->headers);
  // Until the body has been read whole, every answer ends the connection: what the client still
  // sends is never read, and a body that never comes holds no worker.
  response.set_keep_alive(!request.body_announced());
  if (const Status framing = check_body_framing(request.header_values("Content-Length"),
                                                request.header_values("Transfer-Encoding"));
      !framing) {
    // civetweb framed the body its own way: the connection cannot go on whatever it announced.
    response.set_keep_alive(false);
    response.send(400, kText, framing.error() + "\n");
    return 400;
  }
  const std::shared_ptr<const AccessPolicy> policy = access();  // a reload may swap it meanwhile
  const auto admission = admit(request, found.route, web.get(), *policy, response);
  if (admission.refused != 0) return admission.refused;
  // Even an empty user name: user() tells an authenticated client from one without credentials.
  if (admission.authenticated) request.set_user(admission.user);
  request.set_access(policy.get());
  if (const Status no_nul = check_no_nul(request); !no_nul) {
    response.send(400, kText, no_nul.error() + "\n");
    return 400;
  }
  if (found.route == nullptr) {
    response.send(404, kText, "404 page not found\n");
    return 404;
  }
  const Route& route = *found.route;
  if (std::find(route.methods.begin(), route.methods.end(), request.method()) ==
      route.methods.end()) {
    response.send(405, kText,
                  "method " + std::string(request.method()) + " not allowed on " +
                      std::string(request.path()) + "\n",
                  {{"Allow", join_methods(route.methods)}});
    return 405;
  }
  std::optional<RequestLimiter::Slot> slot;
  if (limiter_ != nullptr) {
    const bool shared = route.right == Right::read_history || route.right == Right::capture;
    slot.emplace(limiter_->enter(&route, shared));
    if (!slot->admitted()) {
      constexpr int kUnavailable = 503;
      response.send(kUnavailable, kText,
                    "too many requests in flight on this path (web.max_requests)\n");
      return kUnavailable;
    }
  }
  const BodyRead read = request.read_body(route.max_body_bytes, body_timeout_);
  if (read.end == BodyRead::End::too_large) {
    if (route.on_body_too_large) route.on_body_too_large();
    constexpr int kTooLarge = 413;
    response.send(kTooLarge, kText, body_refusal(route, read));
    return kTooLarge;
  }
  if (read.end != BodyRead::End::whole) {
    const auto [status, text] = unfinished_body(read, body_timeout_);
    response.send(status, kText, text);
    return status;
  }
  response.set_keep_alive(true);
  request.set_path_values(std::move(found.values));
  try {
    route.handler(request, response);
  } catch (const std::exception& e) {
    log::error("request handler failed",
               {{"path", std::string(request.path())}, {"err", e.what()}});
    if (!response.started()) response.send(500, kText, "internal error\n");
    return response.status();
  }
  return response.started() ? response.status() : 200;
}

}  // namespace flightrec::http
