#pragma once
// Reading and spelling incidents.alerts.match: a YAML list of matcher sets in Alertmanager's
// syntax (flightrec/config/alert_matchers.h), handed over as flow text like the role keys.
#include <string>
#include <string_view>
#include <vector>

#include "flightrec/common/result.h"

namespace flightrec::config::detail {

// The sets' texts, each checked to parse, or why not, naming the set by its position, e.g.
// `set 2 "{a=~"("}": a=~"(": not a valid regex (...)`.
[[nodiscard]] Result<std::vector<std::string>> read_alert_match(std::string_view text);
[[nodiscard]] std::string alert_match_allowed();
[[nodiscard]] std::string alert_match_text(const std::vector<std::string>& sets);

}  // namespace flightrec::config::detail
