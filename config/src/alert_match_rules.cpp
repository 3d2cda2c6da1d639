#include "alert_match_rules.h"

#include <yaml-cpp/yaml.h>

#include "flightrec/config/alert_matchers.h"
#include "flightrec/config/detail/text.h"
#include "role_rules.h"

namespace flightrec::config::detail {

std::string alert_match_allowed() {
  return "a list of matcher sets such as '{severity=\"critical\", instance=~\"web-.*\"}'";
}

Result<std::vector<std::string>> read_alert_match(std::string_view text) {
  const auto node = parse_flow(text);
  if (!node || !node->IsSequence()) {
    return Error{"expected " + alert_match_allowed() + ", got " +
                 (node ? describe(*node) : quote(text))};
  }
  std::vector<std::string> sets;
  for (const auto& item : *node) {
    const std::string position = "set " + std::to_string(sets.size() + 1);
    if (!item.IsScalar()) return Error{position + ": expected a string, got " + describe(item)};
    if (const auto parsed = parse_alert_matchers(item.Scalar()); !parsed) {
      return Error{position + " " + quote(item.Scalar()) + ": " + parsed.error() +
                   " (allowed: " + alert_match_allowed() + ")"};
    }
    sets.push_back(item.Scalar());
  }
  return sets;
}

std::string alert_match_text(const std::vector<std::string>& sets) {
  // The emitter quotes each set as YAML needs, so the text reads back the same.
  YAML::Emitter out;
  out << YAML::Flow << YAML::BeginSeq;
  for (const std::string& set : sets) out << YAML::SingleQuoted << set;
  out << YAML::EndSeq;
  return out.c_str();
}

}  // namespace flightrec::config::detail
