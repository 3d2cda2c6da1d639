// RFC 3339 date-times as Alertmanager and Grafana write them (Go's time.RFC3339Nano).
#include <charconv>

#include "flightrec/trigger/alert_payload.h"

namespace flightrec::trigger {
namespace {

constexpr int64_t kNsPerSecond = 1'000'000'000;

// Digits at text[at, at + count) as a number, or -1.
int digits(std::string_view text, size_t at, size_t count) {
  if (at + count > text.size()) return -1;
  int value = 0;
  const char* begin = text.data() + at;
  auto [end, error] = std::from_chars(begin, begin + count, value);
  if (error != std::errc() || end != begin + count) return -1;
  return value;
}

// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil).
int64_t days_from_civil(int64_t y, int64_t m, int64_t d) {
  y -= m <= 2 ? 1 : 0;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

bool leap(int year) { return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0; }

int days_in_month(int year, int month) {
  constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && leap(year) ? 29 : kDays[month - 1];
}

bool separator_at(std::string_view text, size_t at, char c) {
  return at < text.size() && text[at] == c;
}

// The zone at text[at...]: Z or ±HH:MM, as seconds east of UTC; nullopt when malformed or
// followed by anything.
std::optional<int64_t> zone_seconds(std::string_view text, size_t at) {
  if (at >= text.size()) return std::nullopt;
  const char c = text[at];
  if (c == 'Z' || c == 'z') return at + 1 == text.size() ? std::optional<int64_t>(0) : std::nullopt;
  if ((c != '+' && c != '-') || at + 6 != text.size() || !separator_at(text, at + 3, ':')) {
    return std::nullopt;
  }
  const int hours = digits(text, at + 1, 2);
  const int minutes = digits(text, at + 4, 2);
  if (hours < 0 || hours > 23 || minutes < 0 || minutes > 59) return std::nullopt;
  const int64_t seconds = int64_t{hours} * 3600 + int64_t{minutes} * 60;
  return c == '+' ? seconds : -seconds;
}

}  // namespace

std::optional<int64_t> parse_rfc3339_ns(std::string_view text) {
  const int year = digits(text, 0, 4);
  const int month = digits(text, 5, 2);
  const int day = digits(text, 8, 2);
  const int hour = digits(text, 11, 2);
  const int minute = digits(text, 14, 2);
  const int second = digits(text, 17, 2);
  if (year < 1970 || year > 2261 || month < 1 || month > 12 || day < 1 ||
      day > days_in_month(year, month) || hour < 0 || hour > 23 || minute < 0 || minute > 59 ||
      second < 0 || second > 60 || !separator_at(text, 4, '-') || !separator_at(text, 7, '-') ||
      !(separator_at(text, 10, 'T') || separator_at(text, 10, 't')) ||
      !separator_at(text, 13, ':') || !separator_at(text, 16, ':')) {
    return std::nullopt;
  }
  size_t at = 19;
  int64_t fraction_ns = 0;
  if (separator_at(text, at, '.')) {
    ++at;
    int64_t scale = kNsPerSecond / 10;
    const size_t first = at;
    while (at < text.size() && text[at] >= '0' && text[at] <= '9') {
      fraction_ns += (text[at] - '0') * scale;  // digits past the ninth add nothing
      scale /= 10;
      ++at;
    }
    if (at == first) return std::nullopt;
  }
  const auto zone = zone_seconds(text, at);
  if (!zone) return std::nullopt;
  // A leap second (:60) reads as the next second's start, as Go does.
  const int64_t seconds = days_from_civil(year, month, day) * 86400 + int64_t{hour} * 3600 +
                          int64_t{minute} * 60 + second - *zone;
  return seconds * kNsPerSecond + fraction_ns;
}

}  // namespace flightrec::trigger
