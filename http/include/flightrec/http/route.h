#pragma once
// A route: a path pattern, what it serves in one line, the methods it answers, the right it needs
// and its handler. Every component describes its own routes (incidents, viewer, exporter, trigger,
// dump, the app's own) and the app adds them all to one Router (router.h), the one place every
// request passes through. The landing page lists them from there, and docs/SECURITY.md's table of
// endpoints is checked against that list (tests/e2e/endpoint_docs.sh).
//
// Patterns are made of '/'-separated segments:
//   /metrics               a literal path, matched exactly
//   /incidents/{id}        {name} matches one non-empty segment; Request::path_value("id") reads it
//   /incidents/{id...}     a last {name...} matches the rest of the path (one or more segments):
//                          the prefix form
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "flightrec/common/enum_names.h"

namespace flightrec::http {

class Request;
class Response;

using Handler = std::function<void(const Request&, Response&)>;

// What a caller must be allowed to do to reach a route (docs/SECURITY.md: history and capture are
// separate rights from reading metrics). Router::dispatch checks it before any handler runs: with
// basic_auth_users, every route but `anyone` needs a valid user, and each right needs one access
// role (access.h) of the user, or of an anonymous client when there are no users.
enum class Right {
  anyone,        // the health endpoints: open to probes (web.open_health), else role metrics
  read_metrics,  // /metrics and the landing page: role metrics
  read_history,  // /dump, /incidents and their pages (command lines, history): role recordings
  capture,       // acting: /-/trigger (writes an incident to disk), /-/reload: role actions
};

// The enumerators' names, as the landing page and docs/SECURITY.md show them: "read_metrics".
inline constexpr EnumName<Right> kRightNames[] = {{Right::anyone, "anyone"},
                                                  {Right::read_metrics, "read_metrics"},
                                                  {Right::read_history, "read_history"},
                                                  {Right::capture, "capture"}};
static_assert(names_are_distinct(kRightNames));

[[nodiscard]] constexpr std::string_view right_name(Right right) {
  return name_of(kRightNames, right);
}

struct Route {
  std::string path;  // the pattern, as above
  // What a client gets there, in one line of plain text, for the landing page: "Prometheus and
  // OpenMetrics exposition".
  std::string summary;
  Handler handler;
  std::vector<std::string> methods{"GET", "HEAD"};
  Right right = Right::read_history;  // the strictest read by default
  // The longest request body the route takes, in bytes (0: none). The router reads the body
  // before the handler runs (Request::body) and answers 413 to a longer one: at once from its
  // Content-Length, unread, or once a chunked body has run past the bound.
  size_t max_body_bytes = 0;
  // Called for each request refused that way, for a route that counts its refusals.
  std::function<void()> on_body_too_large;
};

}  // namespace flightrec::http
