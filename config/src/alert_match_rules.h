#pragma once
// Reading and spelling incidents.alerts.match: a YAML list of matcher sets in Alertmanager's
// syntax (flightrec/config/alert_matchers.h), handed over as flow text like the role keys.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace flightrec::config::detail {

// Stores the sets' texts in `out` (each checked to parse) and returns nullopt, or returns why not,
// naming the set by its position, e.g. `set 2 "{a=~"("}": a=~"(": not a valid regex (...)`.
[[nodiscard]] std::optional<std::string> read_alert_match(std::string_view text,
                                                          std::vector<std::string>& out);
[[nodiscard]] std::string alert_match_allowed();
[[nodiscard]] std::string alert_match_text(const std::vector<std::string>& sets);

}  // namespace flightrec::config::detail
