#pragma once
// Times as /dump's from= and to= accept them: RFC 3339 ("2026-11-30T05:00:00Z", with fractional
// seconds and +hh:mm offsets), Unix seconds ("1764478800", "1764478800.25"), "now", or relative to
// now ("-30s", "-5m", "-1h30m", "-250ms", units ms s m h d).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace flightrec::recording {

struct TimeParse {
  int64_t real_ns = 0;  // Unix nanoseconds
  std::string error;    // empty on success; otherwise a message naming `name` and the text
  // With an error, when the text has a time's form: what is wrong with its value (the part of
  // `error` in parentheses, e.g. "month 13 out of range"); "" when the text is no time at all.
  std::string reason;
  [[nodiscard]] bool ok() const noexcept { return error.empty(); }
};

// `name` is the parameter the text came from (used in the error), now_real_ns the current time.
TimeParse parse_time_param(std::string_view name, std::string_view text, int64_t now_real_ns);

// An RFC 3339 date-time as written ("2026-12-02T03:04:05.123456789Z", "...+01:00", 't' and 'z'
// in lower case too) to Unix ns; nullopt when the text is not one, or is one that int64 ns cannot
// hold (outside 1677..2262, or finer than 9 fraction digits): then `reason`, when given, says
// which, as TimeParse::reason does. parse_time_param also takes a URL query's decoding of it, a
// space for the 'T' or for an offset's '+'; this does not.
std::optional<int64_t> parse_rfc3339_ns(std::string_view text, std::string* reason = nullptr);

}  // namespace flightrec::recording
