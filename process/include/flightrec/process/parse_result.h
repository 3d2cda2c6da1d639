#pragma once
// The outcome of a pure parse_* function: a value, or a message naming the field or line that was
// wrong. Readers prefix the message with the file's path.
#include <optional>
#include <string>
#include <utility>

namespace flightrec::process {

template <typename T>
struct ParseResult {
  std::optional<T> value;
  std::string error;  // set exactly when value is empty

  static ParseResult failure(std::string message) { return {std::nullopt, std::move(message)}; }
  [[nodiscard]] bool ok() const noexcept { return value.has_value(); }
};

}  // namespace flightrec::process
