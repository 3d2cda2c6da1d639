#pragma once
// `${NAME}` and `${NAME:-default}` in the values of incidents.alerts.match, so that one shared
// file (one Kubernetes ConfigMap for every node) can say "alerts about this host":
// `{instance=~"${NODE_NAME}(:[0-9]+)?"}`. The braces are required: a bare `$NAME`, as Prometheus
// also accepts, would clash with the regex anchor `$`. `$${` is a literal `${`.
//
// A variable that is unset or empty is an error, not "": an empty host name would silently turn
// "this host" into "no host" (or every host). `${NAME:-}` says that empty is meant.
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "flightrec/common/result.h"

namespace flightrec::config {

// A variable's value, nullopt when it is not set.
using Environment = std::function<std::optional<std::string>(std::string_view name)>;

// The daemon's own environment (getenv).
[[nodiscard]] Environment process_environment();

// How a variable's value is written into the text around it.
enum class Substitution {
  literal,        // as it is
  regex_literal,  // with regex metacharacters escaped, so that it matches only itself
};

// `text` with its variables replaced, or why not, e.g. "${NODE_NAME} is not set (set it, or give
// a default: ${NODE_NAME:-value})". A default is substituted like a value.
[[nodiscard]] Result<std::string> expand_variables(std::string_view text, const Environment& env,
                                                   Substitution substitution);

}  // namespace flightrec::config
