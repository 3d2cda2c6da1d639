#pragma once
// The names that Prometheus labels and environment variables share: a letter or _, then letters,
// digits and _ ([A-Za-z_][A-Za-z0-9_]*).

namespace flightrec::config::detail {

inline bool is_identifier_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
inline bool is_identifier_char(char c) { return is_identifier_start(c) || (c >= '0' && c <= '9'); }

}  // namespace flightrec::config::detail
