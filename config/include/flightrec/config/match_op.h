#pragma once
// A label matcher's operator, as Prometheus and Alertmanager write it (=, !=, =~, !~), and what it
// holds for: shared by the alert matchers of incidents.alerts.match (alert_matchers.h) and the
// label matchers of a rule's signal (trigger_rules.h).
#include <cstdint>
#include <string_view>

#include "flightrec/common/enum_names.h"
#include "flightrec/common/regex.h"

namespace flightrec::config {

enum class MatchOp : uint8_t { equal, not_equal, regex, not_regex };

// Each operator as written between a label's name and its value, longest first: a parser that
// tries them in this order reads `=~` as one operator, not `=` before a value starting with `~`.
inline constexpr EnumName<MatchOp> kMatchOps[] = {{MatchOp::not_equal, "!="},
                                                  {MatchOp::regex, "=~"},
                                                  {MatchOp::not_regex, "!~"},
                                                  {MatchOp::equal, "="}};
static_assert(names_are_distinct(kMatchOps));

[[nodiscard]] constexpr bool is_regex(MatchOp op) noexcept {
  return op == MatchOp::regex || op == MatchOp::not_regex;
}

// Whether `value` satisfies `op`: equal to `literal` (= and !=), or matched whole by `regex`
// (=~ and !~, which must pass it).
[[nodiscard]] bool holds(MatchOp op, std::string_view value, std::string_view literal,
                         const Regex* regex) noexcept;

}  // namespace flightrec::config
