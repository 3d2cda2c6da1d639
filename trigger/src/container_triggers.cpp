#include "flightrec/trigger/container_triggers.h"

#include <time.h>

#include <algorithm>
#include <limits>
#include <utility>

#include "flightrec/common/clock.h"
#include "flightrec/common/printable.h"
#include "flightrec/config/trigger_rules.h"
#include "flightrec/model/incident_description.h"
#include "flightrec/recorder/containers/container_labels.h"
#include "flightrec/trigger/engine.h"

namespace flightrec::trigger {
namespace {

using recorder::containers::ContainerRead;
using recorder::containers::ContainerRound;

// `signal{label="value",...}` with the container's labels that have a value, in /metrics' order.
std::string series_of(std::string_view signal,
                      const recorder::containers::ContainerLabels& labels) {
  std::string out(signal);
  char separator = '{';
  for (const auto& label : labels) {
    if (label.value.empty()) continue;
    out += separator;
    out += label.name;
    out += '=';
    out += quote_for_error(label.value, {.keep_non_ascii = true});
    separator = ',';
  }
  if (separator == ',') out += '}';
  return out;
}

// A label the container lacks has the value "", as in Prometheus: pod!="x" selects a container
// outside any pod.
bool selects(const std::vector<config::CompiledMatcher>& matchers,
             const recorder::containers::ContainerLabels& labels) {
  for (const auto& wanted : matchers) {
    const auto label = std::find_if(labels.begin(), labels.end(), [&wanted](const auto& l) {
      return l.name == wanted.matcher().name;
    });
    if (!wanted.matches(label == labels.end() ? std::string_view() : label->value)) return false;
  }
  return true;
}

}  // namespace

std::vector<config::TriggerRule> container_rules(const std::vector<config::TriggerRule>& rules) {
  std::vector<config::TriggerRule> out;
  std::copy_if(rules.begin(), rules.end(), std::back_inserter(out),
               [](const auto& rule) { return config::is_container_selector(rule.selector); });
  return out;
}

ContainerTriggers::ContainerTriggers(std::vector<config::TriggerRule> rules,
                                     std::chrono::nanoseconds buffer_duration)
    : buffer_duration_(buffer_duration) {
  replace_rules(std::move(rules));
  take_replacement();
}

void ContainerTriggers::replace_rules(std::vector<config::TriggerRule> rules) {
  std::vector<Rule> resolved;
  for (config::TriggerRule& rule : rules) {
    auto signal = config::container_signal_of(rule.selector);
    if (!signal) continue;  // not a container rule: the engine's
    // The config load compiled these already and refused a bad regex, naming the rule.
    auto matchers = config::compile_matchers(rule.selector);
    if (!matchers) continue;
    resolved.push_back({std::move(rule), *signal, std::move(*matchers)});
  }
  const std::lock_guard lock(replacement_mutex_);
  has_rules_.store(!resolved.empty(), std::memory_order_relaxed);
  replacement_ = std::move(resolved);
  replacement_waiting_.store(true, std::memory_order_release);
}

bool ContainerTriggers::empty() const { return !has_rules_.load(std::memory_order_relaxed); }

void ContainerTriggers::take_replacement() {
  std::vector<Rule> next;
  {
    const std::lock_guard lock(replacement_mutex_);
    if (!replacement_) return;
    next = std::move(*replacement_);
    replacement_.reset();
    replacement_waiting_.store(false, std::memory_order_release);
  }
  // Each container's holds follow their rule to its new place; a new or changed rule starts
  // afresh.
  std::vector<size_t> carried(next.size(), std::numeric_limits<size_t>::max());
  for (size_t n = 0; n < next.size(); ++n) {
    for (size_t o = 0; o < rules_.size(); ++o) {
      if (same_rule(next[n].rule, rules_[o].rule)) carried[n] = o;
    }
  }
  for (auto& [path, tracked] : containers_) {
    std::vector<Hold> holds(next.size());
    for (size_t n = 0; n < next.size(); ++n) {
      if (carried[n] < tracked.holds.size()) holds[n] = tracked.holds[carried[n]];
    }
    tracked.holds = std::move(holds);
  }
  rules_ = std::move(next);
}

void ContainerTriggers::observe(const ContainerRound& round) {
  if (replacement_waiting_.load(std::memory_order_acquire)) take_replacement();
  if (rules_.empty()) {
    containers_.clear();
    return;
  }
  if (round.slow) ++slow_rounds_;
  // Reads carry the monotonic clock; incidents are in Unix time.
  const int64_t real_offset_ns = clock_ns(CLOCK_REALTIME) - clock_ns(CLOCK_MONOTONIC);
  for (const ContainerRead& read : round.reads) {
    Tracked& tracked = containers_[read.info->ref.path];
    if (tracked.holds.size() != rules_.size()) tracked.holds.resize(rules_.size());
    if (round.slow) tracked.seen_in_round = slow_rounds_;
    evaluate(read, tracked, round.mono_ns, round.slow, real_offset_ns);
  }
  // A container missing from a slow round is gone (or could not be read): its state goes.
  if (round.slow) {
    std::erase_if(containers_,
                  [&](const auto& entry) { return entry.second.seen_in_round != slow_rounds_; });
  }
  drops_.flush();
}

void ContainerTriggers::evaluate(const ContainerRead& read, Tracked& tracked, int64_t mono_ns,
                                 bool slow, int64_t real_offset_ns) {
  tracked.values.take(*read.stats, mono_ns, slow);
  const auto labels = recorder::containers::container_labels(*read.info);
  for (size_t r = 0; r < rules_.size(); ++r) {
    const Rule& rule = rules_[r];
    const bool fast = is_fast_signal(rule.signal);
    if (!fast && !slow) continue;  // no new value for it
    if (!selects(rule.matchers, labels)) continue;
    Hold& hold = tracked.holds[r];
    const double value = tracked.values.value(rule.signal);
    if (!config::compare(rule.rule.op, value, rule.rule.value)) {  // NaN too
      hold.holding = false;
      continue;
    }
    if (!hold.holding) {
      // The read stands for the time since the one before it (of its tier), as a frame stands
      // for its tick: a condition seen on reads 100 ms apart has held 100 ms at the second.
      const int64_t before = fast ? tracked.last_read_ns : tracked.last_slow_ns;
      hold.holding = true;
      hold.since_ns = before != 0 ? before : mono_ns;
    }
    if (mono_ns - hold.since_ns < rule.rule.hold.count()) continue;
    if (hold.fired && mono_ns - hold.last_fired_ns < rule.rule.cooldown.count()) continue;
    hold.fired = true;
    hold.last_fired_ns = mono_ns;
    fire(rule, read, value, mono_ns + real_offset_ns);
  }
  tracked.last_read_ns = mono_ns;
  if (slow) tracked.last_slow_ns = mono_ns;
}

void ContainerTriggers::fire(const Rule& rule, const ContainerRead& read, double value,
                             int64_t real_ns) {
  namespace keys = model::incident_details;
  const auto& ref = read.info->ref;
  const auto& names = read.info->names;
  model::IncidentCapture capture;
  model::IncidentDescription& incident = capture.description;
  incident.kind = model::IncidentKind::container;
  incident.rule = rule.rule.name;
  incident.condition = config::condition_text(rule.rule);
  incident.series =
      series_of(rule.rule.selector.name, recorder::containers::container_labels(*read.info));
  incident.value = value;
  incident.fired_at_ns = real_ns;
  incident.window_from_ns = real_ns - rule.rule.pre.value_or(buffer_duration_).count();
  incident.window_to_ns = real_ns + rule.rule.post.count();
  // The runtime's id is what the process frames carry; the cgroup path names it otherwise.
  const std::string& id = names.id.empty() ? ref.identity.id : names.id;
  incident.details = {{std::string(keys::kContainerId), id},
                      {std::string(keys::kContainerCgroup), ref.path}};
  const std::pair<std::string_view, const std::string*> named[] = {
      {keys::kContainerNamespace, &names.pod_namespace},
      {keys::kContainerPod, &names.pod},
      {keys::kContainerName, names.container.empty() ? &names.name : &names.container},
      {keys::kContainerImage, &names.image}};
  for (const auto& [key, text] : named) {
    if (!text->empty()) incident.details.emplace_back(std::string(key), *text);
  }
  fired_.fetch_add(1, std::memory_order_relaxed);
  {
    const std::lock_guard lock(requests_mutex_);
    if (requests_.size() < kMaxWaiting) {
      requests_.push_back(std::move(capture));
      waiting_.store(true, std::memory_order_release);
      return;
    }
  }
  dropped_.fetch_add(1, std::memory_order_relaxed);
  drops_.note(rule.rule.name);
}

void ContainerTriggers::take(std::vector<model::IncidentCapture>& out) {
  const std::lock_guard lock(requests_mutex_);
  for (model::IncidentCapture& capture : requests_) out.push_back(std::move(capture));
  requests_.clear();
  waiting_.store(false, std::memory_order_release);
}

}  // namespace flightrec::trigger
