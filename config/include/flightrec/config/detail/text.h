#pragma once
// Text helpers for messages and docs.
#include <yaml-cpp/exceptions.h>
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

// What a YAML parse error means, for "<file>:<line>: <this>": "YAML syntax error: <yaml-cpp's
// message>", but for nesting past the parser's depth limit, which yaml-cpp calls a "bad file", the
// limit and that it was exceeded.
[[nodiscard]] std::string yaml_error_text(const YAML::Exception& error);

// "a, b, c"
[[nodiscard]] std::string join(std::span<const std::string_view> words);

}  // namespace flightrec::config::detail
