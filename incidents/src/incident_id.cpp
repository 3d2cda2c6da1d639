#include "flightrec/incidents/incident_id.h"

#include <string>

#include "flightrec/common/time_format.h"

namespace flightrec::incidents {
namespace {

bool is_alnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

// "20261130T052811.123Z": the RFC 3339 form without its separators; fixed width, so ids sort by
// time for years 1970..9999.
std::string compact_utc_ms(int64_t unix_ns) {
  std::string text = format_rfc3339_ms(unix_ns);
  std::erase_if(text, [](char c) { return c == '-' || c == ':'; });
  return text;
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
