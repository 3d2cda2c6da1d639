#pragma once
// Text helpers for messages and docs.
#include <yaml-cpp/node/node.h>

#include <span>
#include <string>
#include <string_view>

namespace flightrec::config::detail {

// Quotes a value the user wrote: escapes quotes, backslashes and control characters so a message
// stays on one line, and shortens very long values.
[[nodiscard]] std::string quote(std::string_view value);

// What a YAML node is, for "expected ..., got <this>": "a map", "a list", "the value \"x\"".
[[nodiscard]] std::string describe(const YAML::Node& node);

// "a, b, c"
[[nodiscard]] std::string join(std::span<const std::string_view> words);

}  // namespace flightrec::config::detail
