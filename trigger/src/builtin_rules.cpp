#include "flightrec/trigger/builtin_rules.h"

#include <algorithm>
#include <chrono>
#include <iterator>
#include <string>

#include "flightrec/config/container_signals.h"
#include "flightrec/config/trigger_rules.h"
#include "flightrec/model/signals.h"

namespace flightrec::trigger {
namespace {

config::TriggerRule oom_kill_rule() {
  config::TriggerRule rule;
  rule.name = std::string(kOomKillRule);
  rule.signal = std::string(model::signal_names::kOomKillsPerSecond);
  rule.selector = *config::parse_signal_selector(rule.signal);
  rule.op = config::Comparison::greater;
  rule.value = 0;
  rule.post = std::chrono::seconds(5);
  rule.cooldown = rule.post;
  return rule;
}

}  // namespace

std::vector<config::TriggerRule> rules_with_builtins(const config::Config& config) {
  // Container rules run on the container tier's reads (container_triggers.h), not on frames.
  std::vector<config::TriggerRule> rules;
  std::copy_if(config.triggers.begin(), config.triggers.end(), std::back_inserter(rules),
               [](const auto& rule) { return !config::is_container_selector(rule.selector); });
  const bool replaced = std::any_of(rules.begin(), rules.end(),
                                    [](const auto& rule) { return rule.name == kOomKillRule; });
  // Its signal comes from the vmstat source: without it there is nothing to watch.
  const auto vmstat = config.sources.find("vmstat");
  const bool watched = vmstat != config.sources.end() && vmstat->second.enabled;
  if (config.incidents.capture_oom_kills && watched && !replaced) rules.push_back(oom_kill_rule());
  return rules;
}

model::IncidentKind incident_kind_of(const config::TriggerRule& rule) {
  return rule.name == kOomKillRule ? model::IncidentKind::oom_kill : model::IncidentKind::rule;
}

}  // namespace flightrec::trigger
