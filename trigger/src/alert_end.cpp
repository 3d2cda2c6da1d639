#include "flightrec/trigger/alert_end.h"

#include <algorithm>

#include "alert_details.h"
#include "flightrec/common/time_format.h"

namespace flightrec::trigger {

int64_t extended_window_to(int64_t window_to_ns, int64_t ends_at_ns,
                           std::chrono::nanoseconds max_extension) {
  if (ends_at_ns <= window_to_ns) return window_to_ns;
  return std::min(ends_at_ns, window_to_ns + max_extension.count());
}

model::RevisedIncident ended_incident(const model::IncidentDescription& stored, int64_t ends_at_ns,
                                      std::chrono::nanoseconds max_extension,
                                      const store::RingStats& ring) {
  model::RevisedIncident revised{.description = stored};
  recording::Labels& details = revised.description.details;
  alert_details::set(details, alert_details::kStatus, "resolved");
  alert_details::set(details, alert_details::kEndsAt, format_rfc3339_ms(ends_at_ns));
  const int64_t stored_to = stored.window_to_ns;
  const int64_t wanted_to = extended_window_to(stored_to, ends_at_ns, max_extension);
  if (wanted_to == stored_to) return revised;
  revised.description.window_to_ns = wanted_to;
  // After a restart the ring starts later than the stored window's end, and a ring that has moved
  // past it has lost what came right after it: either way its frames would leave a gap.
  const bool continues =
      ring.frames > 0 && ring.first_real_ns <= stored_to && ring.last_real_ns > stored_to;
  const int64_t held_to = continues ? std::min(wanted_to, ring.last_real_ns) : stored_to;
  if (continues) revised.append_until_ns = held_to;
  alert_details::set(details, alert_details::kHeldTo, format_rfc3339_ms(held_to));
  return revised;
}

}  // namespace flightrec::trigger
