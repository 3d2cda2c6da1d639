#pragma once
// One-line structured logs on stderr in logfmt, the format Prometheus and its exporters use:
//   ts=2026-11-30T04:12:47.123Z level=info msg="listening" url=http://127.0.0.1:9717/
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace flightrec::log {

enum class Level { debug, info, warn, error };

using Field = std::pair<std::string_view, std::string>;

// Parses "debug", "info", "warn" or "error"; nullopt for anything else.
std::optional<Level> parse_level(std::string_view text);
void set_level(Level level);
[[nodiscard]] bool enabled(Level level);

// Formats one record without the timestamp (for tests) and writes full lines with write_line.
std::string format(Level level, std::string_view msg, std::initializer_list<Field> fields);
void write(Level level, std::string_view msg, std::initializer_list<Field> fields = {});

inline void debug(std::string_view msg, std::initializer_list<Field> fields = {}) {
  write(Level::debug, msg, fields);
}
inline void info(std::string_view msg, std::initializer_list<Field> fields = {}) {
  write(Level::info, msg, fields);
}
inline void warn(std::string_view msg, std::initializer_list<Field> fields = {}) {
  write(Level::warn, msg, fields);
}
inline void error(std::string_view msg, std::initializer_list<Field> fields = {}) {
  write(Level::error, msg, fields);
}

}  // namespace flightrec::log
