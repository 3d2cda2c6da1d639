#pragma once
// Line by line through procfs text such as /proc/<pid>/status: lines are counted so that an error
// can name the line at fault.
#include <optional>
#include <string>
#include <string_view>

namespace flightrec::process::detail {

class LineSplitter {
 public:
  explicit LineSplitter(std::string_view text) : rest_(text) {}

  // The next line, without its '\n'; false once the text is used up.
  bool next(std::string_view& line) {
    if (rest_.empty()) return false;
    ++line_number_;
    const size_t newline = rest_.find('\n');
    line = rest_.substr(0, newline);
    rest_ = newline == std::string_view::npos ? std::string_view() : rest_.substr(newline + 1);
    return true;
  }

  // The number of the line next() gave last, counting from 1.
  size_t line_number() const { return line_number_; }

 private:
  std::string_view rest_;
  size_t line_number_ = 0;
};

struct KeyValue {
  std::string_view key;
  std::string_view value;  // all after the colon, white space included
};

// "Key:<value>" split at the first colon; nullopt for a line without one.
inline std::optional<KeyValue> split_key_value(std::string_view line) {
  const size_t colon = line.find(':');
  if (colon == std::string_view::npos) return std::nullopt;
  return KeyValue{line.substr(0, colon), line.substr(colon + 1)};
}

// "line 3 (read_bytes): malformed value 'x'"
inline std::string malformed_value_error(size_t line_number, std::string_view key,
                                         std::string_view value) {
  return "line " + std::to_string(line_number) + " (" + std::string(key) + "): malformed value '" +
         std::string(value) + "'";
}

}  // namespace flightrec::process::detail
