#pragma once
// Whole-token decimal parsing for procfs text: the token must be a number and nothing else.
#include <charconv>
#include <optional>
#include <string_view>

namespace flightrec::process::detail {

template <typename Int>
std::optional<Int> parse_decimal(std::string_view token) {
  Int value{};
  const char* end = token.data() + token.size();
  const auto [ptr, ec] = std::from_chars(token.data(), end, value);
  if (token.empty() || ec != std::errc() || ptr != end) return std::nullopt;
  return value;
}

inline std::string_view trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\n");
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(" \t\n");
  return text.substr(first, last - first + 1);
}

}  // namespace flightrec::process::detail
