#include "flightrec/common/time_format.h"

#include <charconv>
#include <chrono>
#include <cstdio>
#include <optional>

namespace flightrec {
namespace {

namespace chrono = std::chrono;

constexpr int64_t kNsPerSecond = 1'000'000'000;
// Unix seconds representable as int64 nanoseconds (up to year 2262).
constexpr int64_t kMaxSeconds = INT64_MAX / kNsPerSecond - 1;

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Consumes exactly `width` digits from the front of `text`.
std::optional<int64_t> fixed_digits(std::string_view& text, size_t width) {
  if (text.size() < width) return std::nullopt;
  int64_t value = 0;
  for (size_t i = 0; i < width; ++i) {
    if (!is_digit(text[i])) return std::nullopt;
    value = value * 10 + (text[i] - '0');
  }
  text.remove_prefix(width);
  return value;
}

bool consume(std::string_view& text, char c) {
  if (text.empty() || text.front() != c) return false;
  text.remove_prefix(1);
  return true;
}

// What a time of the right form still cannot be: int64 ns hold these Unix seconds only.
constexpr std::string_view kOutOfRange =
    "out of range: times run from 1677-09-21T00:12:45Z to 2262-04-11T23:47:15Z";
constexpr std::string_view kFractionOutOfRange =
    "fraction out of range: at most 9 digits (nanoseconds)";

struct Fraction {
  int64_t ns = 0;
  bool finer_than_ns = false;  // more than 9 digits: valid RFC 3339, but not a time we hold
};

// ".25" -> 250000000 ns. No leading dot: 0.
std::optional<Fraction> fraction_ns(std::string_view& text) {
  if (!consume(text, '.')) return Fraction{};
  size_t digits = 0;
  Fraction fraction;
  while (!text.empty() && is_digit(text.front())) {
    if (++digits <= 9) fraction.ns = fraction.ns * 10 + (text.front() - '0');
    text.remove_prefix(1);
  }
  if (digits == 0) return std::nullopt;
  for (size_t i = digits; i < 9; ++i) fraction.ns *= 10;
  fraction.finer_than_ns = digits > 9;
  return fraction;
}

// The date's day, or nullopt when its month has no such day (the month is 1..12). The calendar is
// <chrono>'s proleptic Gregorian one, as RFC 3339 dates are.
std::optional<chrono::sys_days> calendar_day(int64_t year, int64_t month, int64_t day) {
  const chrono::year_month_day date{chrono::year{static_cast<int>(year)},
                                    chrono::month{static_cast<unsigned>(month)},
                                    chrono::day{static_cast<unsigned>(day)}};
  if (!date.ok()) return std::nullopt;
  return chrono::sys_days{date};
}

struct Parsed {
  std::optional<int64_t> ns;
  std::string reason;  // why a well-formed text is still not a time
};

Parsed parse_rfc3339(std::string_view text, Rfc3339Source source) {
  const bool from_url_query = source == Rfc3339Source::url_query;
  const auto year = fixed_digits(text, 4);
  if (!year || !consume(text, '-')) return {};
  const auto month = fixed_digits(text, 2);
  if (!month || !consume(text, '-')) return {};
  const auto day = fixed_digits(text, 2);
  // RFC 3339 allows 't' and (section 5.6's note) a space for the 'T'.
  if (!day || text.empty() ||
      (text.front() != 'T' && text.front() != 't' && !(from_url_query && text.front() == ' '))) {
    return {};
  }
  text.remove_prefix(1);
  const auto hour = fixed_digits(text, 2);
  if (!hour || !consume(text, ':')) return {};
  const auto minute = fixed_digits(text, 2);
  if (!minute || !consume(text, ':')) return {};
  const auto second = fixed_digits(text, 2);
  if (!second) return {};
  const auto fraction = fraction_ns(text);
  if (!fraction) return {};
  int64_t offset_minutes = 0;
  if (consume(text, 'Z') || consume(text, 'z')) {
  } else if (!text.empty() && (text.front() == '+' || text.front() == '-' ||
                               (from_url_query && text.front() == ' '))) {
    // A '+' in a URL query becomes a space when decoded: take the space as the '+' it was.
    const int64_t sign = text.front() == '-' ? -1 : 1;
    text.remove_prefix(1);
    const auto offset_hour = fixed_digits(text, 2);
    if (!offset_hour || !consume(text, ':')) return {};
    const auto offset_minute = fixed_digits(text, 2);
    if (!offset_minute) return {};
    if (*offset_hour > 23 || *offset_minute > 59) return {.reason = "offset out of range"};
    offset_minutes = sign * (*offset_hour * 60 + *offset_minute);
  } else {
    return {};
  }
  if (!text.empty()) return {};
  if (*month < 1 || *month > 12)
    return {.reason = "month " + std::to_string(*month) + " out of range"};
  const auto date = calendar_day(*year, *month, *day);
  if (!date) return {.reason = "day " + std::to_string(*day) + " out of range for the month"};
  // Second 60 is a leap second: it lands on the next minute's first second, as POSIX time does.
  if (*hour > 23 || *minute > 59 || *second > 60) return {.reason = "time of day out of range"};
  if (fraction->finer_than_ns) return {.reason = std::string(kFractionOutOfRange)};
  const chrono::sys_seconds time = *date + chrono::hours{*hour} +
                                   chrono::minutes{*minute - offset_minutes} +
                                   chrono::seconds{*second};
  const int64_t seconds = time.time_since_epoch().count();
  if (seconds < -kMaxSeconds || seconds > kMaxSeconds) return {.reason = std::string(kOutOfRange)};
  return {.ns = seconds * kNsPerSecond + fraction->ns};
}

Parsed parse_unix_seconds(std::string_view text) {
  int64_t seconds = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), seconds);
  if (error == std::errc::result_out_of_range) return {.reason = std::string(kOutOfRange)};
  if (error != std::errc() || end == text.data() || text.front() == '-') return {};
  text.remove_prefix(static_cast<size_t>(end - text.data()));
  const auto fraction = fraction_ns(text);
  if (!fraction || !text.empty()) return {};
  if (fraction->finer_than_ns) return {.reason = std::string(kFractionOutOfRange)};
  if (seconds > kMaxSeconds) return {.reason = std::string(kOutOfRange)};
  return {.ns = seconds * kNsPerSecond + fraction->ns};
}

}  // namespace

std::string format_rfc3339_ms(int64_t unix_ns) {
  // Floor, not truncation, for times before 1970.
  const auto time = chrono::floor<chrono::milliseconds>(
      chrono::sys_time<chrono::nanoseconds>{chrono::nanoseconds{unix_ns}});
  const auto day = chrono::floor<chrono::days>(time);
  const chrono::year_month_day date{day};
  const chrono::hh_mm_ss time_of_day{time - day};
  char text[48];
  const int length = std::snprintf(
      text, sizeof text, "%04d-%02u-%02uT%02d:%02d:%02d.%03dZ", static_cast<int>(date.year()),
      static_cast<unsigned>(date.month()), static_cast<unsigned>(date.day()),
      static_cast<int>(time_of_day.hours().count()),
      static_cast<int>(time_of_day.minutes().count()),
      static_cast<int>(time_of_day.seconds().count()),
      static_cast<int>(time_of_day.subseconds().count()));
  return std::string(text, static_cast<size_t>(length));
}

std::optional<int64_t> parse_rfc3339_ns(std::string_view text, std::string* reason,
                                        Rfc3339Source source) {
  Parsed parsed = parse_rfc3339(text, source);
  if (reason != nullptr) *reason = std::move(parsed.reason);
  return parsed.ns;
}

std::optional<int64_t> parse_unix_seconds_ns(std::string_view text, std::string* reason) {
  Parsed parsed = parse_unix_seconds(text);
  if (reason != nullptr) *reason = std::move(parsed.reason);
  return parsed.ns;
}

}  // namespace flightrec
