#pragma once
// Admission of manual incident requests (POST /-/trigger), so that a client looping on it cannot
// fill the incident store. A request while a manual incident is still pending (its post window
// has not ended) joins that incident; a request within `min_interval` of the last accepted one is
// refused with the time to wait; any other is accepted. The store's retention then never deletes a
// rule-fired incident for a manual one (IncidentStore::apply_retention).
#include <array>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string_view>

#include "flightrec/common/enum_names.h"

namespace flightrec::trigger {

enum class ManualAdmission : uint8_t { accepted, coalesced, refused };
// The `result` label of flightrec_manual_trigger_requests_total, in the enum's order.
inline constexpr EnumName<ManualAdmission> kManualAdmissionNames[] = {
    {ManualAdmission::accepted, "accepted"},
    {ManualAdmission::coalesced, "coalesced"},
    {ManualAdmission::refused, "refused"}};
static_assert(names_are_distinct(kManualAdmissionNames) &&
              rows_follow_values(kManualAdmissionNames));
[[nodiscard]] constexpr std::string_view admission_name(ManualAdmission admission) noexcept {
  return name_of(kManualAdmissionNames, admission);
}

struct ManualDecision {
  ManualAdmission admission;
  // Refused: how long until a request would be accepted. Accepted and coalesced: until the
  // pending incident's post window ends.
  std::chrono::nanoseconds wait{0};
  // Accepted: the request's own real time; coalesced: that of the request it joins, whose
  // incident this one's answer names; refused: 0.
  int64_t fired_at_ns = 0;
};

class ManualTriggerGate {
 public:
  using Clock = std::chrono::steady_clock;

  // `pending_for`: how long an accepted request stays pending (the manual post window);
  // `min_interval`: least time between two accepted requests (incidents.manual_interval; 0: none).
  ManualTriggerGate(std::chrono::nanoseconds pending_for, std::chrono::nanoseconds min_interval);

  // Any thread. Decides and counts one request arriving at `now`, `now_real_ns` in real time.
  ManualDecision admit(Clock::time_point now, int64_t now_real_ns);

  // Any thread (a configuration reload): the interval from now on.
  void set_min_interval(std::chrono::nanoseconds min_interval);

  // Requests so far by admission, for /metrics.
  [[nodiscard]] uint64_t count(ManualAdmission admission) const;

 private:
  const std::chrono::nanoseconds pending_for_;
  std::chrono::nanoseconds min_interval_;  // guarded by mutex_
  mutable std::mutex mutex_;
  std::optional<Clock::time_point> last_accepted_;
  int64_t last_accepted_real_ns_ = 0;
  std::array<uint64_t, std::size(kManualAdmissionNames)> counts_{};
};

}  // namespace flightrec::trigger
