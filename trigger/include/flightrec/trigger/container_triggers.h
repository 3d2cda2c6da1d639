#pragma once
// Container rules (docs/TRIGGERS.md, "Container rules"): trigger rules over the container tier's
// signals (config/container_signals.h), e.g. container_cpu_throttled_ratio{namespace="prod"} >
// 0.5 for 300ms, evaluated for each container their labels match, on the container tier's thread
// as each round's reads arrive (observe()): a container in the fast tier is evaluated at
// containers.fast_rate, every other at containers.rate, so `for` counts the time between the
// reads that saw the condition. Holding time and cooldown are kept per rule and container: one
// container firing does not silence the rule for another.
//
// A firing becomes a capture request of kind `container` whose window is the rule's around the
// read that completed it; the recorder thread takes it (CaptureRequests) as it takes alerts. The
// incident names the container: the series with its labels, and container.* details
// (model::incident_details), its runtime id among them, by which readers pick its processes out
// of the process frames. observe() never waits for the recorder: requests go to a small queue
// under a lock held only to push or take, and beyond kMaxWaiting the firing is dropped, counted
// and logged (rate-limited).
#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "flightrec/common/limited_warning.h"
#include "flightrec/config/config.h"
#include "flightrec/config/container_signals.h"
#include "flightrec/config/trigger_rules.h"
#include "flightrec/model/incident_handoff.h"
#include "flightrec/recorder/containers/container_round.h"
#include "flightrec/trigger/capturer.h"
#include "flightrec/trigger/container_values.h"

namespace flightrec::trigger {

// The container rules among `rules` (their selector names a container signal); the rest are the
// TriggerEngine's (rules_with_builtins leaves these out).
[[nodiscard]] std::vector<config::TriggerRule> container_rules(
    const std::vector<config::TriggerRule>& rules);

class ContainerTriggers final : public CaptureRequests {
 public:
  static constexpr size_t kMaxWaiting = 64;

  // `buffer_duration`: the window before the firing of a rule without `pre`. The rules must be
  // container rules (their signals checked by the config).
  ContainerTriggers(std::vector<config::TriggerRule> rules,
                    std::chrono::nanoseconds buffer_duration);

  // The container tier's thread, after each round (recorder::ContainerRecorder's observer).
  void observe(const recorder::containers::ContainerRound& round);

  // Any thread (a configuration reload): the next observe() runs these. A rule whose definition
  // is unchanged keeps each container's holding time and cooldown.
  void replace_rules(std::vector<config::TriggerRule> rules);

  [[nodiscard]] bool empty() const;
  [[nodiscard]] uint64_t fired() const noexcept { return fired_.load(std::memory_order_relaxed); }
  [[nodiscard]] uint64_t dropped() const noexcept {
    return dropped_.load(std::memory_order_relaxed);
  }

  [[nodiscard]] bool waiting() const noexcept override {
    return waiting_.load(std::memory_order_acquire);
  }
  void take(std::vector<model::IncidentCapture>& out) override;
  void complete(model::IncidentCapture&, const store::Snapshot&) override {}

 private:
  struct Rule {
    config::TriggerRule rule;
    config::ContainerSignal signal;
    std::vector<config::CompiledMatcher> matchers;  // rule.selector's
  };
  struct Hold {
    bool holding = false;
    int64_t since_ns = 0;
    bool fired = false;
    int64_t last_fired_ns = 0;
  };
  struct Tracked {
    ContainerValues values;
    int64_t last_read_ns = 0;  // 0: not read before
    int64_t last_slow_ns = 0;
    uint64_t seen_in_round = 0;
    std::vector<Hold> holds;  // per rule
  };

  void take_replacement();
  void evaluate(const recorder::containers::ContainerRead& read, Tracked& tracked, int64_t mono_ns,
                bool slow, int64_t real_offset_ns);
  void fire(const Rule& rule, const recorder::containers::ContainerRead& read, double value,
            int64_t real_ns);

  const std::chrono::nanoseconds buffer_duration_;
  // The container thread's own state.
  std::vector<Rule> rules_;
  std::unordered_map<std::string, Tracked> containers_;  // by cgroup path
  uint64_t slow_rounds_ = 0;
  // A reload's rules, swapped in by the next observe().
  mutable std::mutex replacement_mutex_;
  std::optional<std::vector<Rule>> replacement_;
  std::atomic<bool> replacement_waiting_{false};
  std::atomic<bool> has_rules_{false};
  // Requests for the recorder thread.
  std::mutex requests_mutex_;
  std::vector<model::IncidentCapture> requests_;
  std::atomic<bool> waiting_{false};
  std::atomic<uint64_t> fired_{0};
  std::atomic<uint64_t> dropped_{0};
  log::LimitedWarning drops_{"container rule firings dropped: too many waiting to be captured"};
};

}  // namespace flightrec::trigger
