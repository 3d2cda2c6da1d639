#include "flightrec/incidents/incident_id.h"

#include <cstdio>
#include <ctime>

namespace flightrec::incidents {
namespace {

bool is_alnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

// "20261130T052811.123Z": fixed width, so ids sort by time for years 1970..9999.
std::string compact_utc_ms(int64_t unix_ns) {
  constexpr int64_t kNanosPerSecond = 1'000'000'000;
  int64_t seconds = unix_ns / kNanosPerSecond;
  int64_t nanos = unix_ns % kNanosPerSecond;
  if (nanos < 0) {
    nanos += kNanosPerSecond;
    --seconds;
  }
  const auto time = static_cast<std::time_t>(seconds);
  std::tm utc{};
  gmtime_r(&time, &utc);
  char text[48];
  const int length = std::snprintf(text, sizeof text, "%04d%02d%02dT%02d%02d%02d.%03dZ",
                                   utc.tm_year + 1900, utc.tm_mon + 1, utc.tm_mday, utc.tm_hour,
                                   utc.tm_min, utc.tm_sec, static_cast<int>(nanos / 1'000'000));
  return std::string(text, static_cast<size_t>(length));
}

}  // namespace

std::string make_incident_id(int64_t fired_at_ns, std::string_view rule, int attempt) {
  std::string id = compact_utc_ms(fired_at_ns);
  id += '-';
  const std::string_view part = rule.substr(0, kMaxRulePartLength);
  if (part.empty()) id += "incident";
  for (const char c : part) id += (is_alnum(c) || c == '_' || c == '-') ? c : '_';
  if (attempt > 1) id += "-" + std::to_string(attempt);
  return id;
}

bool is_valid_incident_id(std::string_view id) {
  if (id.empty() || id.size() > kMaxIdLength || !is_alnum(id.front())) return false;
  for (const char c : id) {
    if (!is_alnum(c) && c != '_' && c != '-' && c != '.') return false;
  }
  return true;
}

}  // namespace flightrec::incidents
