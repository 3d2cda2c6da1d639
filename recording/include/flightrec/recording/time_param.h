#pragma once
// Times as /dump's from= and to= accept them: RFC 3339 ("2026-11-30T05:00:00Z", with fractional
// seconds and +hh:mm offsets), Unix seconds ("1764478800", "1764478800.25"), "now", or relative to
// now ("-30s", "-5m", "-1h30m", "-250ms", units ms s m h d). The absolute forms are common's
// (time_format.h); a URL query's decoding of RFC 3339, a space for the 'T' or an offset's '+', is
// taken too.
#include <cstdint>
#include <string>
#include <string_view>

namespace flightrec::recording {

// Not a Result: a failure also carries `reason`, which replay words its own message from.
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

}  // namespace flightrec::recording
