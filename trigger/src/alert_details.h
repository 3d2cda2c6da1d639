#pragma once
// The "alert.*" details of alert incidents that the receiver and the end's revision both write
// (docs/INCIDENTS.md, "Alert incidents"), and setting one in place (recording::value_of reads
// them).
#include <algorithm>
#include <string>
#include <string_view>

#include "flightrec/model/alert_details.h"
#include "flightrec/recording/metadata.h"

namespace flightrec::trigger::alert_details {

// The keys are the model's, which the readers (`flightrec incidents`, replay) use too.
using model::alert_detail_keys::kEndsAt;
using model::alert_detail_keys::kFingerprint;
using model::alert_detail_keys::kHeldFrom;
using model::alert_detail_keys::kHeldTo;
using model::alert_detail_keys::kSource;
using model::alert_detail_keys::kStatus;
// Set only when the sender's startsAt was more than kMaxStartsAtLead ahead of this host's clock:
// that startsAt in Unix ns, which identifies the episode, while fired_at is the receipt.
inline constexpr std::string_view kSentStartsAtNs = "alert.sent_starts_at_ns";
// kHeldFrom when the ring held none of the wanted window: no time could be true there.
inline constexpr std::string_view kNothingHeld = "none";

// Sets `key` in place, or appends it.
inline void set(recording::Labels& details, std::string_view key, std::string value) {
  auto found = std::find_if(details.begin(), details.end(),
                            [key](const auto& detail) { return detail.first == key; });
  if (found != details.end()) {
    found->second = std::move(value);
  } else {
    details.emplace_back(key, std::move(value));
  }
}

}  // namespace flightrec::trigger::alert_details
