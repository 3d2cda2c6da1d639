#include "flightrec/trigger/engine.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "flightrec/common/closest_name.h"
#include "flightrec/config/trigger_rules.h"
#include "flightrec/sampler/slot_table.h"

namespace flightrec::trigger {
namespace {

using sampler::SeriesDesc;

uint64_t ticks_covering(std::chrono::nanoseconds span, std::chrono::nanoseconds rate) {
  return static_cast<uint64_t>((span.count() + rate.count() - 1) / rate.count());
}

std::string label_text(const std::string& name, const std::string& value) {
  return name + "=\"" + value + "\"";
}

std::string name_prefix(const SeriesDesc& desc) {
  std::string out = desc.name + "{";
  for (size_t i = 0; i < desc.labels.size(); ++i) {
    if (i > 0) out += ",";
    out += label_text(desc.labels[i].first, desc.labels[i].second);
  }
  return out;
}

// Whether `desc` matches the selector's labels; a label naming a keyed series' key label is
// checked per tick instead (its value is bound at run time) and returned in `key_value`.
bool matches(const config::SignalSelector& selector, const SeriesDesc& desc,
             std::string& key_value) {
  if (desc.name != selector.name) return false;
  for (const auto& wanted : selector.labels) {
    // The config offers only = outside container rules (config/src/trigger_list.cpp).
    const auto& name = wanted.name;
    const auto& value = wanted.value;
    auto fixed = std::find_if(desc.labels.begin(), desc.labels.end(),
                              [&name](const auto& label) { return label.first == name; });
    if (fixed != desc.labels.end()) {
      if (fixed->second != value) return false;
    } else if (desc.keys != nullptr && desc.key_label == name) {
      key_value = value;
    } else {
      return false;
    }
  }
  return true;
}

std::string rule_reference(const config::TriggerRule& rule) {
  std::string out = "trigger \"" + rule.name + "\"";
  if (rule.line > 0) out += " (line " + std::to_string(rule.line) + ")";
  return out;
}

// `did you mean "x"?` with the host's signal or series name nearest `unknown`, else where the
// names are listed.
std::string hint_for(std::string_view unknown, const std::vector<model::Signal>& signals,
                     const sampler::Schema& schema) {
  std::vector<std::string_view> names;
  const auto add = [&names](std::string_view name) {
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  };
  for (const model::Signal& signal : signals) add(signal.desc.name);
  for (const SeriesDesc& series : schema) add(series.name);
  if (auto meant = closest_name(unknown, names)) {
    return "did you mean \"" + std::string(*meant) + "\"?";
  }
  return "see docs/TRIGGERS.md";
}

}  // namespace

bool same_rule(const config::TriggerRule& a, const config::TriggerRule& b) {
  config::TriggerRule moved = b;
  moved.line = a.line;
  return a == moved;
}

TriggerEngine::TriggerEngine(std::vector<config::TriggerRule> rules,
                             const std::vector<model::Signal>& signals,
                             const sampler::Schema& schema, std::chrono::nanoseconds rate)
    : signals_(signals), schema_(schema), rate_(rate) {
  if (rate.count() <= 0) throw std::invalid_argument("trigger engine: the tick rate must be > 0");
  RuleSet resolved = resolve(std::move(rules));
  rules_ = std::move(resolved.rules);
  states_ = std::move(resolved.states);
  firings_ = std::move(resolved.firings);
}

TriggerEngine::RuleSet TriggerEngine::resolve(std::vector<config::TriggerRule> rules) const {
  RuleSet set{.rules = std::move(rules), .states = {}, .firings = {}, .carried_from = {}};
  std::string problems;
  for (const config::TriggerRule& rule : set.rules) {
    RuleState state;
    state.required_ticks = std::max<uint64_t>(1, ticks_covering(rule.hold, rate_));
    state.cooldown_ticks = ticks_covering(rule.cooldown, rate_);
    // Derived signals first: a raw series is used only when no signal has the name.
    bool signal_named = std::any_of(signals_.begin(), signals_.end(), [&](const auto& signal) {
      return signal.desc.name == rule.selector.name;
    });
    auto add_matches = [&](bool derived, const SeriesDesc& desc, size_t index) {
      std::string key_value;
      if (!matches(rule.selector, desc, key_value)) return;
      Match match{derived,       index,          desc.scale, desc.keys,
                  desc.key_slot, desc.key_label, key_value,  name_prefix(desc)};
      if (rule.over) match.mean.emplace(std::max<uint64_t>(1, ticks_covering(*rule.over, rate_)));
      state.matches.push_back(std::move(match));
    };
    if (signal_named) {
      for (size_t i = 0; i < signals_.size(); ++i) add_matches(true, signals_[i].desc, i);
    } else {
      for (size_t i = 0; i < schema_.size(); ++i) add_matches(false, schema_[i], i);
    }
    bool name_known = signal_named || std::any_of(schema_.begin(), schema_.end(), [&](auto& s) {
                        return s.name == rule.selector.name;
                      });
    if (!name_known) {
      problems += rule_reference(rule) + ": unknown signal \"" + rule.selector.name +
                  "\" (not a signal or series on this host; " +
                  hint_for(rule.selector.name, signals_, schema_) + ")\n";
    } else if (state.matches.empty()) {
      problems += rule_reference(rule) + ": no series of \"" + rule.selector.name +
                  "\" has the labels in " + rule.signal + "\n";
    }
    set.states.push_back(std::move(state));
  }
  if (!problems.empty()) {
    problems.pop_back();
    throw std::invalid_argument(problems);
  }
  // evaluate() never allocates: room for every rule and every manual request.
  set.firings.reserve(set.rules.size() + kMaxPendingManual);
  return set;
}

TriggerEngine::ResolvedRules TriggerEngine::resolve_rules(
    std::vector<config::TriggerRule> rules) const {
  return ResolvedRules(resolve(std::move(rules)));
}

void TriggerEngine::replace_rules(ResolvedRules rules) {
  RuleSet& resolved = rules.set_;
  const std::lock_guard lock(replacement_mutex_);
  // rules_ changes only under this lock (take_replacement), so it can be read here.
  resolved.carried_from.assign(resolved.rules.size(), kNotCarried);
  for (size_t n = 0; n < resolved.rules.size(); ++n) {
    for (size_t o = 0; o < rules_.size(); ++o) {
      if (same_rule(resolved.rules[n], rules_[o])) resolved.carried_from[n] = o;
    }
  }
  replacement_ = std::move(resolved);
  replacement_waiting_.store(true, std::memory_order_release);
}

void TriggerEngine::take_replacement() noexcept {
  const std::lock_guard lock(replacement_mutex_);
  if (!replacement_) return;
  RuleSet& next = *replacement_;
  // A rule the reload left as it was keeps its state: a condition already holding goes on
  // counting towards `for`, and a rule in its cooldown does not fire again because of the reload.
  for (size_t n = 0; n < next.rules.size(); ++n) {
    if (next.carried_from[n] != kNotCarried)
      next.states[n] = std::move(states_[next.carried_from[n]]);
  }
  std::swap(rules_, next.rules);
  std::swap(states_, next.states);
  std::swap(firings_, next.firings);
  replacement_.reset();  // frees the old rules: deallocation only, on this rare frame
  replacement_waiting_.store(false, std::memory_order_release);
}

double TriggerEngine::value_of(const Match& match, std::span<const int64_t> raw,
                               std::span<const double> derived) const noexcept {
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  if (!match.key_value.empty()) {
    if (match.keys->bound() <= match.key_slot) return kNaN;
    if (match.keys->name(match.key_slot) != match.key_value) return kNaN;
  }
  if (match.derived) return match.index < derived.size() ? derived[match.index] : kNaN;
  if (match.index >= raw.size() || raw[match.index] == sampler::kAbsent) return kNaN;
  return static_cast<double>(raw[match.index]) * match.scale;
}

std::span<const Firing> TriggerEngine::evaluate(const sampler::FrameHeader& header,
                                                std::span<const int64_t> raw,
                                                std::span<const double> derived) noexcept {
  if (replacement_waiting_.load(std::memory_order_acquire)) take_replacement();
  firings_.clear();
  const uint64_t tick = header.tick;
  for (size_t r = 0; r < rules_.size(); ++r) {
    const config::TriggerRule& rule = rules_[r];
    RuleState& state = states_[r];
    bool ready = false;
    size_t first_ready = 0;
    double ready_value = 0;
    for (size_t m = 0; m < state.matches.size(); ++m) {
      Match& match = state.matches[m];
      double value = value_of(match, raw, derived);
      if (match.mean) value = match.mean->add(tick, value);
      if (!config::compare(rule.op, value, rule.value)) {  // NaN lands here too
        match.holding = false;
        continue;
      }
      if (!match.holding) {
        match.holding = true;
        match.holding_since = tick;
      }
      if (!ready && tick - match.holding_since + 1 >= state.required_ticks) {
        ready = true;
        first_ready = m;
        ready_value = value;
      }
    }
    if (!ready) continue;
    if (state.fired && tick - state.last_fired < state.cooldown_ticks) continue;
    state.fired = true;
    state.last_fired = tick;
    firings_.push_back(Firing{r, first_ready, ready_value});
  }
  if (manual_waiting_.load(std::memory_order_acquire)) take_manual_requests();
  return firings_;
}

void TriggerEngine::take_manual_requests() noexcept {
  std::lock_guard lock(manual_mutex_);
  for (size_t i = 0; i < pending_count_; ++i) {
    taken_[i] = std::move(pending_[i]);  // moves the buffer: no allocation here
    taken_at_[i] = pending_at_[i];
    firings_.push_back(Firing{Firing::kManual, i, std::numeric_limits<double>::quiet_NaN()});
  }
  pending_count_ = 0;
  manual_waiting_.store(false, std::memory_order_release);
}

bool TriggerEngine::fire_manual(std::string reason, int64_t requested_at_ns) {
  std::lock_guard lock(manual_mutex_);
  if (pending_count_ == kMaxPendingManual) return false;
  pending_at_[pending_count_] = requested_at_ns;
  pending_[pending_count_++] = std::move(reason);
  manual_waiting_.store(true, std::memory_order_release);
  return true;
}

std::string TriggerEngine::series_name(size_t rule, size_t match) const {
  const Match& m = states_[rule].matches[match];
  std::string out = m.name_prefix;
  if (m.keys != nullptr && m.keys->bound() > m.key_slot) {
    if (out.back() != '{') out += ",";
    out += label_text(m.key_label, std::string(m.keys->name(m.key_slot)));
  }
  if (out.back() == '{') {
    out.pop_back();
  } else {
    out += "}";
  }
  return out;
}

}  // namespace flightrec::trigger
