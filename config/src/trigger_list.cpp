#include "trigger_list.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <set>

#include "flightrec/config/container_signals.h"
#include "flightrec/config/detail/key_tree.h"
#include "flightrec/config/detail/text.h"
#include "flightrec/config/trigger_rules.h"
#include "flightrec/config/units.h"
#include "value_checks.h"

namespace flightrec::config::detail {
namespace {

using namespace std::chrono_literals;

const std::vector<std::string_view> kRuleKeys{"name", "signal", "op",   "value",   "for",
                                              "over", "pre",    "post", "cooldown"};
const std::vector<std::string_view> kRequiredKeys{"name", "signal", "op", "value"};
const std::vector<std::string_view> kShorthandKeys{"cpu_percent", "mem_bytes"};

struct DurationLimit {
  std::string_view key;
  Duration max;
};
constexpr std::array<DurationLimit, 4> kDurationLimits{
    {{"for", 1h}, {"pre", 24h}, {"post", 1h}, {"cooldown", 24h}}};
// `over` keeps a bounded number of partial sums per matched series (trigger/running_mean.h); ten
// minutes is longer than any averaging a Prometheus rule over a millisecond signal would want, and
// the default buffer's span.
constexpr Duration kMaxOver = 10min;

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

// for, pre, post and cooldown: durations from 0 up to their limit.
Status apply_duration(std::string_view name, std::string_view text, TriggerRule& rule) {
  const auto& limit = *std::find_if(kDurationLimits.begin(), kDurationLimits.end(),
                                    [&](const DurationLimit& l) { return l.key == name; });
  const auto duration =
      read_duration(text, Duration::zero(), limit.max, "0.." + format_duration(limit.max));
  if (!duration) return Error{duration.error()};
  if (name == "for") rule.hold = *duration;
  if (name == "pre") rule.pre = *duration;
  if (name == "post") rule.post = *duration;
  if (name == "cooldown") rule.cooldown = *duration;
  return {};
}

std::string rule_path(size_t index) { return "triggers[" + std::to_string(index) + "]"; }

// Sets the field of `rule` that `name` (one of kRuleKeys) stands for, or says why it cannot.
Status apply_rule_key(const std::string& name, const std::string& text, TriggerRule& rule) {
  if (name == "name") {
    rule.name = text;
    if (!is_rule_name(text)) {
      return Error{quote(text) + " is not a rule name (allowed: one or more of a-z, 0-9, _ and -)"};
    }
    // Manual and alert incidents carry these rule names: a rule of the same name would be listed
    // as if it were one of them. (A rule named oom_kill replaces the built-in one: not reserved.)
    if (text == "manual") {
      return Error{quote(text) + " is reserved for manual incidents (POST /-/trigger)"};
    }
    if (text == "alert") {
      return Error{quote(text) +
                   " is reserved for alert incidents (POST /-/trigger/alertmanager, "
                   "/-/trigger/grafana)"};
    }
  } else if (name == "signal") {
    auto selector = parse_signal_selector(text);
    if (!selector) {
      return Error{quote(text) +
                   " is not a signal selector (examples: memory_used_bytes, "
                   "cpu_busy_ratio{cpu=\"total\"}, "
                   "pressure_stall_ratio{resource=\"io\",kind=\"some\"})"};
    }
    // Container rules are checked here, not at start-up: their names and labels are the same on
    // every host, whichever containers run.
    if (is_container_selector(*selector)) {
      if (auto signal = container_signal_of(*selector); !signal) return Error{signal.error()};
    } else if (const auto other =
                   std::find_if(selector->labels.begin(), selector->labels.end(),
                                [](const LabelMatcher& m) { return m.op != MatchOp::equal; });
               other != selector->labels.end()) {
      // A system rule's labels are bound to its series once, at start-up: only = is offered.
      return Error{"label matcher " + matcher_text(*other) +
                   ": only container signals (container_*) take !=, =~ and !~; others match "
                   "labels with ="};
    }
    rule.signal = text;
    rule.selector = std::move(*selector);
  } else if (name == "op") {
    auto op = parse_comparison(text);
    if (!op) return Error{quote(text) + " is not a comparison (allowed: >, >=, <, <=)"};
    rule.op = *op;
  } else if (name == "over") {
    // Not 0: a mean over no time is the tick's value, which leaving `over` out already says.
    const auto over = read_duration(text, 1ms, kMaxOver, "1ms.." + format_duration(kMaxOver));
    if (!over) return Error{over.error()};
    rule.over = *over;
  } else if (name == "value") {
    auto threshold = parse_threshold(text);
    if (!threshold) return Error{quote(text) + " is not a number (examples: 0.8, -1, 1e9, 8GiB)"};
    rule.value = *threshold;
  } else {
    return apply_duration(name, text, rule);
  }
  return {};
}

// The shorthand's rules: `cpu_percent: 90` and `mem_bytes: 8GiB`.
Status apply_shorthand(const std::string& name, const YAML::Node& value, TriggerRule& rule) {
  const std::string text = value.IsScalar() ? value.Scalar() : std::string();
  const std::string written = value.IsScalar() ? quote(text) : describe(value);
  if (name == "cpu_percent") {
    auto percent = value.IsScalar() ? parse_number(text) : std::nullopt;
    if (!percent || *percent < 0 || *percent > 100) {
      return Error{written + " is not a percentage (allowed: 0..100)"};
    }
    rule.signal = "cpu_busy_ratio{cpu=\"total\"}";
    rule.value = *percent / 100.0;
    return {};
  }
  auto bytes = value.IsScalar() ? parse_size(text) : std::nullopt;
  if (!bytes) return Error{written + std::string(kNotASize)};
  rule.signal = "memory_used_bytes";
  rule.value = static_cast<double>(*bytes);
  return {};
}

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
  loaded.rule.line = map.Mark().line + 1;
  bool ok = true;
  const ReportError fail = [&](const YAML::Mark& mark, const std::string& key_path,
                               const std::string& message) {
    report_(mark, key_path, message);
    ok = false;
  };
  std::set<std::string, std::less<>> written;
  YAML::Mark signal_mark;
  std::string signal_path;
  YAML::Mark over_mark;
  for_each_key(map, path, fail, [&](const MapKey& entry) {
    written.insert(entry.name);
    if (std::find(kRuleKeys.begin(), kRuleKeys.end(), entry.name) == kRuleKeys.end()) {
      fail(entry.key.Mark(), entry.path,
           unknown_name("unknown key", suggest_among(path, entry.name, kRuleKeys), kRuleKeys));
      return;
    }
    if (!entry.value.IsScalar()) {
      fail(entry.key.Mark(), entry.path, "expected a single value, got " + describe(entry.value));
      return;
    }
    if (entry.name == "over") over_mark = entry.key.Mark();
    if (entry.name == "name") {
      loaded.name_mark = entry.key.Mark();
      loaded.path = entry.path;
    }
    if (entry.name == "signal") {
      signal_mark = entry.key.Mark();
      signal_path = entry.path;
    }
    if (const Status applied = apply_rule_key(entry.name, entry.value.Scalar(), loaded.rule);
        !applied) {
      fail(entry.key.Mark(), entry.path, applied.error());
    }
  });
  // Container reads come at uneven times (fast and slow tiers), so a mean over them is not a mean
  // over time: refused rather than computed wrong.
  if (loaded.rule.over && is_container_selector(loaded.rule.selector)) {
    fail(over_mark, path + ".over",
         "rule " + quote(loaded.rule.name) +
             ": container rules have no \"over\" (it averages the system frames' ticks; see "
             "docs/TRIGGERS.md, \"Container rules\")");
  }
  for (std::string_view required : kRequiredKeys) {
    if (!written.contains(required)) {
      fail(map.Mark(), path,
           "missing key \"" + std::string(required) + "\" (required: " + join(kRequiredKeys) + ")");
    }
  }
  // Checked once every key is read, so the message names the rule wherever `name` is written.
  if (ok && !signal_path.empty()) {
    if (const auto compiled = compile_matchers(loaded.rule.selector); !compiled) {
      fail(signal_mark, signal_path, "rule " + quote(loaded.rule.name) + ": " + compiled.error());
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
  for_each_key(map, "thresholds", report_, [&](const MapKey& entry) {
    if (std::find(kShorthandKeys.begin(), kShorthandKeys.end(), entry.name) ==
        kShorthandKeys.end()) {
      report_(entry.key.Mark(), entry.path,
              unknown_name("unknown key", suggest_among("thresholds", entry.name, kShorthandKeys),
                           kShorthandKeys));
      return;
    }
    Loaded loaded{{}, entry.key.Mark(), entry.path};
    TriggerRule& rule = loaded.rule;
    rule.name = entry.name;
    rule.line = entry.key.Mark().line + 1;
    rule.op = Comparison::greater;
    if (const Status applied = apply_shorthand(entry.name, entry.value, rule); !applied) {
      report_(entry.key.Mark(), entry.path, applied.error());
      return;
    }
    rule.selector = *parse_signal_selector(rule.signal);
    shorthand_.push_back(std::move(loaded));
  });
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
