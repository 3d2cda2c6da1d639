#include "flightrec/recording/time_param.h"

#include <charconv>
#include <optional>

#include "flightrec/common/printable.h"
#include "flightrec/common/time_format.h"

namespace flightrec::recording {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

struct Parsed {
  std::optional<int64_t> ns;
  std::string reason;  // why a well-formed text is still not a time
};

// "-1h30m" -> now - 5400 s. Each part is digits (with an optional fraction) then a unit.
Parsed parse_relative(std::string_view text, int64_t now_ns) {
  if (!text.starts_with('-') || text.size() == 1) return {};
  text.remove_prefix(1);
  // Long double holds 64-bit integers exactly, so sums of whole units stay exact.
  long double total_ns = 0;
  // Units must decrease, as in Prometheus durations: "-1s1s" or "-30s1m" is a typo, not a sum.
  long double previous_unit_ns = 1e30L;
  while (!text.empty()) {
    size_t digits = 0;
    while (digits < text.size() && (is_digit(text[digits]) || text[digits] == '.')) ++digits;
    long double amount = 0;
    const std::string number(text.substr(0, digits));
    const auto [end, error] = std::from_chars(number.data(), number.data() + number.size(), amount,
                                              std::chars_format::fixed);
    if (digits == 0 || error != std::errc() || end != number.data() + number.size()) return {};
    text.remove_prefix(digits);
    long double unit_ns = 0;
    if (text.starts_with("ms")) {
      unit_ns = 1e6L;
      text.remove_prefix(2);
    } else if (!text.empty() && (text.front() == 's' || text.front() == 'm' ||
                                 text.front() == 'h' || text.front() == 'd')) {
      unit_ns = text.front() == 's'   ? 1e9L
                : text.front() == 'm' ? 60e9L
                : text.front() == 'h' ? 3600e9L
                                      : 86400e9L;
      text.remove_prefix(1);
    } else {
      return {};
    }
    if (unit_ns >= previous_unit_ns) return {.reason = "units must decrease, e.g. -1h30m"};
    previous_unit_ns = unit_ns;
    total_ns += amount * unit_ns;
    if (total_ns > 1e18L) return {.reason = "out of range"};
  }
  return {.ns = now_ns - static_cast<int64_t>(total_ns)};
}

}  // namespace

TimeParse parse_time_param(std::string_view name, std::string_view text, int64_t now_real_ns) {
  Parsed parsed;
  if (text == "now") {
    parsed.ns = now_real_ns;
  } else if (text.starts_with('-')) {
    parsed = parse_relative(text, now_real_ns);
  } else if (text.size() > 4 && text[4] == '-') {
    parsed.ns = parse_rfc3339_ns(text, &parsed.reason, Rfc3339Source::url_query);
  } else {
    parsed.ns = parse_unix_seconds_ns(text, &parsed.reason);
  }
  if (parsed.ns) return {.real_ns = *parsed.ns};
  std::string error = std::string(name) + ": " + quote_for_error(text) + " is not a time (";
  error +=
      parsed.reason.empty() ? "examples: 2026-11-30T05:00:00Z, 1764478800, -30s" : parsed.reason;
  return {.error = error + ")", .reason = std::move(parsed.reason)};
}

}  // namespace flightrec::recording
