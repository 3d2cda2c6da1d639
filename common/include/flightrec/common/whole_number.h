#pragma once
// A number that is the whole of `text`, as std::from_chars reads it: nothing before or after it,
// and within Number's range. For the numbers flightrec wrote itself (metadata, details) and the
// kernel's fields, where anything else means the text is not what it should be.
#include <charconv>
#include <optional>
#include <string_view>
#include <system_error>

namespace flightrec {

template <typename Number>
std::optional<Number> whole_number(std::string_view text) {
  Number value{};
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc{} || end != text.data() + text.size()) return std::nullopt;
  return value;
}

}  // namespace flightrec
