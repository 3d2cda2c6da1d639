#pragma once
// The rule sections outside the key table: `triggers:` (a list of maps) and the `thresholds:`
// shorthand. Scalar keys go through the table; these need their own walk, with the same error
// shape: "flightrec.yaml:12: triggers[1].op: ">>" is not a comparison (allowed: >, >=, <, <=)".
#include <yaml-cpp/yaml.h>

#include <array>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "flightrec/config/config.h"
#include "flightrec/config/detail/map_keys.h"

namespace flightrec::config::detail {

inline constexpr std::array<std::string_view, 2> kRuleSections{"triggers", "thresholds"};

[[nodiscard]] bool is_rule_section(std::string_view top_level_name);

class TriggerRulesLoader {
 public:
  explicit TriggerRulesLoader(ReportError report) : report_(std::move(report)) {}

  // `section` is one of kRuleSections; reports every problem and keeps the rules without any.
  void load(std::string_view section, const YAML::Node& value);

  // Reports rule names used twice (across both sections) and returns the rules: the `triggers:`
  // list in order, then the shorthand's.
  [[nodiscard]] std::vector<TriggerRule> finish();

 private:
  struct Loaded {
    TriggerRule rule;
    YAML::Mark name_mark;
    std::string path;
  };

  void load_list(const YAML::Node& list);
  void load_rule(const YAML::Node& map, const std::string& path);
  void load_thresholds(const YAML::Node& map);

  ReportError report_;
  std::vector<Loaded> listed_;
  std::vector<Loaded> shorthand_;
};

}  // namespace flightrec::config::detail
