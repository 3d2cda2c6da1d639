#pragma once
// The router: which route answers a path, most specific first.
//   1. a literal path (/incidents)
//   2. a pattern with {name} segments (/incidents/{id}/view before /incidents/{id}: where two
//      patterns match, the one with a literal at the first segment where they differ wins)
//   3. a pattern ending in {name...} (the prefix form), the longest literal start first
// A path no route matches is a 404; a method the matching route does not name is a 405 with Allow.
// Every request passes through dispatch(): authentication and roles go there, in front of every
// handler.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "flightrec/http/request.h"
#include "flightrec/http/route.h"

namespace flightrec::http {

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

  // Answers one request: 404, 405 with Allow, or the route's handler (a handler that throws gets a
  // 500 when nothing was sent yet). Returns the status for the server's bookkeeping.
  int dispatch(Request request, Response& response) const;

 private:
  std::vector<Route> routes_;
  std::vector<std::vector<detail::Segment>> patterns_;  // routes_[i]'s pattern, parsed
};

}  // namespace flightrec::http
