#pragma once
// Evaluates trigger rules (docs/TRIGGERS.md) on every recorded frame. Each rule's selector is
// resolved once, at start-up, to the derived signals (or, when no signal has that name, the raw
// series) it matches; evaluate() then compares each match with the threshold, keeps how long the
// condition has held and the rule's cooldown, and says which rules fire on this tick.
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <limits>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "flightrec/config/config.h"
#include "flightrec/model/signals.h"
#include "flightrec/sampler/frame.h"
#include "flightrec/sampler/series.h"
#include "flightrec/trigger/running_mean.h"

namespace flightrec::trigger {

// One rule (or a manual request) firing on the current tick.
struct Firing {
  static constexpr size_t kManual = std::numeric_limits<size_t>::max();
  size_t rule;   // index into rules(), or kManual
  size_t match;  // which of the rule's matches held (see series_name), or the manual slot
  double value;  // the matched series' value now (its mean with `over`); NaN for a manual request
};

// Whether two rules are the same as configured, wherever each stands in the file: a reload keeps
// such a rule's state.
[[nodiscard]] bool same_rule(const config::TriggerRule& a, const config::TriggerRule& b);

class TriggerEngine {
 public:
  static constexpr size_t kMaxPendingManual = 8;

  // Throws std::invalid_argument when a rule's selector matches nothing on this host; the message
  // has one line per such rule, naming it and its line in the config file.
  TriggerEngine(std::vector<config::TriggerRule> rules, const std::vector<model::Signal>& signals,
                const sampler::Schema& schema, std::chrono::nanoseconds rate);

  // Recorder thread, once per frame in tick order. Never allocates. The span stays valid until the
  // next call.
  std::span<const Firing> evaluate(const sampler::FrameHeader& header, std::span<const int64_t> raw,
                                   std::span<const double> derived) noexcept;

  // Any thread (POST /-/trigger?reason=TEXT): fires on the next evaluate(). False when
  // kMaxPendingManual requests are already waiting. `requested_at_ns` (real time) becomes the
  // incident's fired time, so the request can answer the id it will be stored under before its
  // frame arrives; 0 fires it at the time of that frame.
  bool fire_manual(std::string reason, int64_t requested_at_ns = 0);
  // Rules resolved against this host's signals, not yet in force (defined below).
  class ResolvedRules;
  // Any thread (a configuration reload, which builds every part of the new configuration before
  // it installs any): resolves `rules` as the constructor does, throwing std::invalid_argument the
  // same way. Changes nothing.
  [[nodiscard]] ResolvedRules resolve_rules(std::vector<config::TriggerRule> rules) const;
  // Any thread: hands resolved rules to the next evaluate(), which swaps them in between two
  // frames. A rule whose definition is unchanged keeps its state (holding time, cooldown).
  void replace_rules(ResolvedRules rules);
  // The reason of a manual Firing (its `match`), valid until the next evaluate().
  [[nodiscard]] std::string_view manual_reason(size_t slot) const { return taken_[slot]; }
  // Its requested_at_ns (0: none), valid as long.
  [[nodiscard]] int64_t manual_requested_at(size_t slot) const { return taken_at_[slot]; }

  [[nodiscard]] const std::vector<config::TriggerRule>& rules() const noexcept { return rules_; }
  [[nodiscard]] size_t match_count(size_t rule) const { return states_[rule].matches.size(); }
  // The matched series as a selector, e.g. `cpu_busy_ratio{cpu="3"}` or
  // `disk_read_bytes_per_second{device="sda"}`.
  [[nodiscard]] std::string series_name(size_t rule, size_t match) const;

 private:
  struct Match {
    bool derived;  // index into the derived values, else into the raw frame
    size_t index;
    double scale;  // raw only: stored unit -> base unit
    // Keyed series: the key label's value is bound at run time; `key_value` (when not empty) is
    // the one the selector asks for.
    const sampler::SlotTable* keys;
    uint32_t key_slot;
    std::string key_label;
    std::string key_value;
    std::string name_prefix;          // `name{fixed labels` without the closing brace
    std::optional<RunningMean> mean;  // the rule's `over`: compared instead of each tick's value
    bool holding = false;
    uint64_t holding_since = 0;  // tick
  };
  struct RuleState {
    std::vector<Match> matches;
    uint64_t required_ticks;  // `for` in ticks, at least 1
    uint64_t cooldown_ticks;
    bool fired = false;
    uint64_t last_fired = 0;  // tick
  };

  static constexpr size_t kNotCarried = std::numeric_limits<size_t>::max();
  // Rules resolved against this host's signals, ready to be swapped in.
  struct RuleSet {
    std::vector<config::TriggerRule> rules;
    std::vector<RuleState> states;
    std::vector<Firing> firings;       // capacity for every rule and manual request
    std::vector<size_t> carried_from;  // per rule: the running rule it equals, or kNotCarried
  };

  [[nodiscard]] RuleSet resolve(std::vector<config::TriggerRule> rules) const;
  double value_of(const Match& match, std::span<const int64_t> raw,
                  std::span<const double> derived) const noexcept;
  void take_manual_requests() noexcept;
  void take_replacement() noexcept;

  const std::vector<model::Signal>& signals_;
  const sampler::Schema& schema_;
  const std::chrono::nanoseconds rate_;
  std::vector<config::TriggerRule> rules_;
  std::vector<RuleState> states_;
  std::vector<Firing> firings_;  // capacity reserved up front

  std::mutex manual_mutex_;
  std::atomic<bool> manual_waiting_{false};
  std::array<std::string, kMaxPendingManual> pending_;
  size_t pending_count_ = 0;
  std::array<std::string, kMaxPendingManual> taken_;
  std::array<int64_t, kMaxPendingManual> pending_at_{};
  std::array<int64_t, kMaxPendingManual> taken_at_{};

  std::mutex replacement_mutex_;
  std::atomic<bool> replacement_waiting_{false};
  std::optional<RuleSet> replacement_;
};

class TriggerEngine::ResolvedRules {
 private:
  friend class TriggerEngine;
  explicit ResolvedRules(RuleSet set) : set_(std::move(set)) {}
  RuleSet set_;
};

}  // namespace flightrec::trigger
