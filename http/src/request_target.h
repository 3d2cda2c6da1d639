#pragma once
// Requests that civetweb 1.15 would end without a word, answered by the connection gate instead.
// civetweb serves a request whose target is a path. For `*` (OPTIONS * HTTP/1.1 asks about the
// server as a whole) it has nothing to call, and a full URL (absolute-form) it matches against
// the port of its own private listener (accept_handoff.h), which no client's URL names: both
// times it closes the connection with no answer, which a client cannot tell from a crash.
#include <optional>
#include <string>
#include <string_view>

namespace flightrec::http::detail {

struct GateAnswer {
  int status = 0;
  std::string bytes;  // the whole response, which ends the connection (Connection: close)
};

// The answer to a request, given its first bytes, whose request line names no path: 200 with
// Allow to OPTIONS *, 400 naming the target to anything else. nullopt for a target that is a
// path, and for bytes without a whole request line of three parts, which civetweb answers itself.
[[nodiscard]] std::optional<GateAnswer> answer_without_path(std::string_view bytes);

}  // namespace flightrec::http::detail
