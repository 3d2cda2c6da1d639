#pragma once
// Builds nested YAML setting dotted keys to single-quoted values:
//   {{"a.b.c", "1"}, {"a.d", "x"}} -> "a:\n  b:\n    c: '1'\n  d: 'x'\n".
#include <algorithm>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace flightrec::config::testing {

using KeyValues = std::vector<std::pair<std::string, std::string>>;

inline std::vector<std::string_view> split_path(std::string_view path) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  for (size_t dot = path.find('.'); dot != std::string_view::npos; dot = path.find('.', start)) {
    parts.push_back(path.substr(start, dot - start));
    start = dot + 1;
  }
  parts.push_back(path.substr(start));
  return parts;
}

inline std::string yaml_for_keys(KeyValues keys) {
  // Sorting groups keys of one section together, so each section is opened once.
  std::sort(keys.begin(), keys.end());
  std::string yaml;
  std::vector<std::string_view> open_sections;
  for (const auto& [path, value] : keys) {
    std::vector<std::string_view> parts = split_path(path);
    size_t shared = 0;
    while (shared < open_sections.size() && shared + 1 < parts.size() &&
           open_sections[shared] == parts[shared]) {
      ++shared;
    }
    open_sections.resize(shared);
    for (size_t depth = shared; depth + 1 < parts.size(); ++depth) {
      yaml += std::string(2 * depth, ' ') + std::string(parts[depth]) + ":\n";
      open_sections.push_back(parts[depth]);
    }
    std::string quoted = "'";
    for (char c : value) quoted += c == '\'' ? std::string("''") : std::string(1, c);
    yaml += std::string(2 * (parts.size() - 1), ' ') + std::string(parts.back()) + ": " + quoted +
            "'\n";
  }
  return yaml;
}

}  // namespace flightrec::config::testing
