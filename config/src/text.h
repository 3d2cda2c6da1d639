#pragma once
// Text helpers for messages and docs.
#include <span>
#include <string>
#include <string_view>

namespace flightrec::config::detail {

// Quotes a value the user wrote: escapes quotes, backslashes and control characters so a message
// stays on one line, and shortens very long values.
[[nodiscard]] std::string quote(std::string_view value);

// "a, b, c"
[[nodiscard]] std::string join(std::span<const std::string_view> words);

}  // namespace flightrec::config::detail
