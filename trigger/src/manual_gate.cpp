#include "flightrec/trigger/manual_gate.h"

namespace flightrec::trigger {

ManualTriggerGate::ManualTriggerGate(std::chrono::nanoseconds pending_for,
                                     std::chrono::nanoseconds min_interval)
    : pending_for_(pending_for), min_interval_(min_interval) {}

ManualDecision ManualTriggerGate::admit(Clock::time_point now, int64_t now_real_ns) {
  const std::lock_guard lock(mutex_);
  ManualDecision decision{ManualAdmission::accepted, pending_for_, now_real_ns};
  if (last_accepted_) {
    const auto since = now - *last_accepted_;
    if (since < pending_for_) {
      decision = {ManualAdmission::coalesced, pending_for_ - since, last_accepted_real_ns_};
    } else if (since < min_interval_) {
      decision = {ManualAdmission::refused, min_interval_ - since, 0};
    }
  }
  if (decision.admission == ManualAdmission::accepted) {
    last_accepted_ = now;
    last_accepted_real_ns_ = now_real_ns;
  }
  ++counts_[static_cast<size_t>(decision.admission)];
  return decision;
}

void ManualTriggerGate::set_min_interval(std::chrono::nanoseconds min_interval) {
  const std::lock_guard lock(mutex_);
  min_interval_ = min_interval;
}

uint64_t ManualTriggerGate::count(ManualAdmission admission) const {
  const std::lock_guard lock(mutex_);
  return counts_[static_cast<size_t>(admission)];
}

}  // namespace flightrec::trigger
