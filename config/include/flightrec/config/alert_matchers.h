#pragma once
// Label matchers in Alertmanager's syntax, which decide which alerts capture an incident
// (incidents.alerts.match): a set is `{severity="critical", instance=~"web-.*"}` (braces optional),
// its matchers ANDed. As in Alertmanager, a label the alert lacks reads as "" and a regex must
// match the whole value (it is anchored). Regexes are RE2 (common/regex.h), Alertmanager's syntax
// too. Values may name environment variables, `${NODE_NAME}` (variables.h): substituted when the
// set is parsed, as a literal in a regex (escaped).
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "flightrec/common/enum_names.h"
#include "flightrec/common/regex.h"
#include "flightrec/common/result.h"
#include "flightrec/config/match_op.h"
#include "flightrec/config/variables.h"

namespace flightrec::config {

struct AlertMatcher {
  std::string name;
  MatchOp op = MatchOp::equal;
  std::string value;
  std::optional<Regex> regex;  // for regex and not_regex: `value`, anchored
};

using AlertMatcherSet = std::vector<AlertMatcher>;
using AlertLabels = std::vector<std::pair<std::string, std::string>>;

// The set `text` spells, its variables looked up in `env`, or why not, e.g. `instance=~"(": not a
// valid regex (missing ): ()` or `instance: ${NODE_NAME} is not set (...)`.
[[nodiscard]] Result<AlertMatcherSet> parse_alert_matchers(
    std::string_view text, const Environment& env = process_environment());

// Whether every matcher of `set` holds for `labels` (an empty set holds for every alert).
[[nodiscard]] bool matches_all(const AlertMatcherSet& set, const AlertLabels& labels);

// Whether any set holds; no sets at all: every alert passes.
[[nodiscard]] bool passes_filter(const std::vector<AlertMatcherSet>& sets,
                                 const AlertLabels& labels);

}  // namespace flightrec::config
