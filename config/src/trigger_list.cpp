#include "trigger_list.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>

#include "flightrec/config/trigger_rules.h"
#include "flightrec/config/units.h"
#include "key_tree.h"
#include "text.h"

namespace flightrec::config::detail {
namespace {

using namespace std::chrono_literals;

const std::vector<std::string_view> kRuleKeys{"name", "signal", "op",   "value",
                                              "for",  "pre",    "post", "cooldown"};
const std::vector<std::string_view> kRequiredKeys{"name", "signal", "op", "value"};
const std::vector<std::string_view> kShorthandKeys{"cpu_percent", "mem_bytes"};

struct DurationLimit {
  std::string_view key;
  Duration max;
};
constexpr std::array<DurationLimit, 4> kDurationLimits{
    {{"for", 1h}, {"pre", 24h}, {"post", 1h}, {"cooldown", 24h}}};

std::optional<double> parse_number(std::string_view text) {
  double value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  if (!std::isfinite(value)) return std::nullopt;
  return value;
}

// A threshold: a plain number, or a size with units for byte signals ("8GiB").
std::optional<double> parse_threshold(std::string_view text) {
  if (auto number = parse_number(text)) return number;
  if (auto bytes = parse_size(text)) return static_cast<double>(*bytes);
  return std::nullopt;
}

std::string rule_path(size_t index) { return "triggers[" + std::to_string(index) + "]"; }

}  // namespace

bool is_rule_section(std::string_view top_level_name) {
  return std::find(kRuleSections.begin(), kRuleSections.end(), top_level_name) !=
         kRuleSections.end();
}

void TriggerRulesLoader::load(std::string_view section, const YAML::Node& value) {
  if (section == "triggers") {
    load_list(value);
  } else {
    load_thresholds(value);
  }
}

void TriggerRulesLoader::load_list(const YAML::Node& list) {
  if (list.IsNull()) return;  // "triggers:" with every rule commented out
  if (!list.IsSequence()) {
    report_(list.Mark(), "triggers",
            "expected a list of rules (each a map with " + join(kRequiredKeys) + "), got " +
                describe(list));
    return;
  }
  for (size_t i = 0; i < list.size(); ++i) {
    const YAML::Node& item = list[i];
    if (!item.IsMap()) {
      report_(item.Mark(), rule_path(i),
              "expected a map of rule keys (" + join(kRuleKeys) + "), got " + describe(item));
      continue;
    }
    load_rule(item, rule_path(i));
  }
}

void TriggerRulesLoader::load_rule(const YAML::Node& map, const std::string& path) {
  Loaded loaded{{}, map.Mark(), path};
  TriggerRule& rule = loaded.rule;
  rule.line = map.Mark().line + 1;
  bool ok = true;
  auto fail = [&](const YAML::Mark& mark, const std::string& key_path, const std::string& message) {
    report_(mark, key_path, message);
    ok = false;
  };
  std::map<std::string, int, std::less<>> first_line;
  for (const auto& pair : map) {
    const YAML::Node& key = pair.first;
    const YAML::Node& value = pair.second;
    if (!key.IsScalar()) {
      fail(key.Mark(), path, "a key must be a plain name, got " + describe(key));
      continue;
    }
    const std::string& name = key.Scalar();
    std::string key_path = path + "." + name;
    auto [seen, inserted] = first_line.emplace(name, key.Mark().line + 1);
    if (!inserted) {
      fail(key.Mark(), key_path,
           "duplicate key (first written on line " + std::to_string(seen->second) + ")");
      continue;
    }
    if (std::find(kRuleKeys.begin(), kRuleKeys.end(), name) == kRuleKeys.end()) {
      auto best = closest_name(name, kRuleKeys);
      fail(key.Mark(), key_path,
           best ? "unknown key; did you mean \"" + path + "." + std::string(*best) + "\"?"
                : "unknown key (known here: " + join(kRuleKeys) + ")");
      continue;
    }
    if (!value.IsScalar()) {
      fail(key.Mark(), key_path, "expected a single value, got " + describe(value));
      continue;
    }
    const std::string& text = value.Scalar();
    if (name == "name") {
      if (!is_rule_name(text)) {
        fail(key.Mark(), key_path,
             quote(text) + " is not a rule name (allowed: one or more of a-z, 0-9, _ and -)");
      }
      rule.name = text;
      loaded.name_mark = key.Mark();
      loaded.path = key_path;
    } else if (name == "signal") {
      auto selector = parse_signal_selector(text);
      if (!selector) {
        fail(key.Mark(), key_path,
             quote(text) +
                 " is not a signal selector (examples: memory_used_bytes, "
                 "cpu_busy_ratio{cpu=\"total\"}, "
                 "pressure_stall_ratio{resource=\"io\",kind=\"some\"})");
      } else {
        rule.signal = text;
        rule.selector = std::move(*selector);
      }
    } else if (name == "op") {
      auto op = parse_comparison(text);
      if (!op) {
        fail(key.Mark(), key_path, quote(text) + " is not a comparison (allowed: >, >=, <, <=)");
      } else {
        rule.op = *op;
      }
    } else if (name == "value") {
      auto threshold = parse_threshold(text);
      if (!threshold) {
        fail(key.Mark(), key_path, quote(text) + " is not a number (examples: 0.8, -1, 1e9, 8GiB)");
      } else {
        rule.value = *threshold;
      }
    } else {
      const auto& limit = *std::find_if(kDurationLimits.begin(), kDurationLimits.end(),
                                        [&](const DurationLimit& l) { return l.key == name; });
      auto duration = parse_duration(text);
      if (!duration) {
        fail(key.Mark(), key_path, quote(text) + " is not a duration (examples: 500us, 1ms, 2s)");
        continue;
      }
      if (*duration < Duration::zero() || *duration > limit.max) {
        fail(key.Mark(), key_path,
             quote(text) + " is out of range (allowed: 0.." + format_duration(limit.max) + ")");
        continue;
      }
      if (name == "for") rule.hold = *duration;
      if (name == "pre") rule.pre = *duration;
      if (name == "post") rule.post = *duration;
      if (name == "cooldown") rule.cooldown = *duration;
    }
  }
  for (std::string_view required : kRequiredKeys) {
    if (!first_line.contains(required)) {
      fail(map.Mark(), path,
           "missing key \"" + std::string(required) + "\" (required: " + join(kRequiredKeys) + ")");
    }
  }
  if (ok) listed_.push_back(std::move(loaded));
}

void TriggerRulesLoader::load_thresholds(const YAML::Node& map) {
  if (map.IsNull()) return;
  if (!map.IsMap()) {
    report_(map.Mark(), "thresholds",
            "expected a map (" + join(kShorthandKeys) + "), got " + describe(map));
    return;
  }
  std::map<std::string, int, std::less<>> first_line;
  for (const auto& pair : map) {
    const YAML::Node& key = pair.first;
    const YAML::Node& value = pair.second;
    if (!key.IsScalar()) {
      report_(key.Mark(), "thresholds", "a key must be a plain name, got " + describe(key));
      continue;
    }
    const std::string& name = key.Scalar();
    std::string key_path = "thresholds." + name;
    auto [seen, inserted] = first_line.emplace(name, key.Mark().line + 1);
    if (!inserted) {
      report_(key.Mark(), key_path,
              "duplicate key (first written on line " + std::to_string(seen->second) + ")");
      continue;
    }
    if (std::find(kShorthandKeys.begin(), kShorthandKeys.end(), name) == kShorthandKeys.end()) {
      auto best = closest_name(name, kShorthandKeys);
      report_(key.Mark(), key_path,
              best ? "unknown key; did you mean \"thresholds." + std::string(*best) + "\"?"
                   : "unknown key (known here: " + join(kShorthandKeys) + ")");
      continue;
    }
    Loaded loaded{{}, key.Mark(), key_path};
    TriggerRule& rule = loaded.rule;
    rule.name = name;
    rule.line = key.Mark().line + 1;
    rule.op = Comparison::greater;
    const std::string text = value.IsScalar() ? value.Scalar() : std::string();
    if (name == "cpu_percent") {
      auto percent = value.IsScalar() ? parse_number(text) : std::nullopt;
      if (!percent || *percent < 0 || *percent > 100) {
        report_(key.Mark(), key_path,
                (value.IsScalar() ? quote(text) : describe(value)) +
                    " is not a percentage (allowed: 0..100)");
        continue;
      }
      rule.signal = "cpu_busy_ratio{cpu=\"total\"}";
      rule.value = *percent / 100.0;
    } else {
      auto bytes = value.IsScalar() ? parse_size(text) : std::nullopt;
      if (!bytes) {
        report_(key.Mark(), key_path,
                (value.IsScalar() ? quote(text) : describe(value)) +
                    " is not a size (examples: 512KiB, 256MiB, 1GiB, 1000000)");
        continue;
      }
      rule.signal = "memory_used_bytes";
      rule.value = static_cast<double>(*bytes);
    }
    rule.selector = *parse_signal_selector(rule.signal);
    shorthand_.push_back(std::move(loaded));
  }
}

std::vector<TriggerRule> TriggerRulesLoader::finish() {
  std::vector<const Loaded*> in_file_order;
  for (const auto* list : {&listed_, &shorthand_}) {
    for (const Loaded& loaded : *list) in_file_order.push_back(&loaded);
  }
  std::stable_sort(in_file_order.begin(), in_file_order.end(), [](const auto* a, const auto* b) {
    return a->name_mark.pos < b->name_mark.pos;
  });
  std::map<std::string_view, int, std::less<>> first_line;
  bool unique = true;
  for (const Loaded* loaded : in_file_order) {
    auto [seen, inserted] = first_line.emplace(loaded->rule.name, loaded->name_mark.line + 1);
    if (!inserted) {
      report_(loaded->name_mark, loaded->path,
              "rule name " + quote(loaded->rule.name) + " is already used (on line " +
                  std::to_string(seen->second) + ")");
      unique = false;
    }
  }
  std::vector<TriggerRule> rules;
  if (!unique) return rules;  // the load fails anyway
  for (const auto* list : {&listed_, &shorthand_}) {
    for (const Loaded& loaded : *list) rules.push_back(loaded.rule);
  }
  return rules;
}

}  // namespace flightrec::config::detail
