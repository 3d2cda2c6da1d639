#pragma once
// The pieces of a trigger rule written as text: signal selectors, comparisons and rule names.
// The loader uses them to check `triggers:` (docs/TRIGGERS.md); the trigger component uses them to
// describe rules in incidents.
#include <optional>
#include <string>
#include <string_view>

#include "flightrec/common/enum_names.h"
#include "flightrec/config/config.h"

namespace flightrec::config {

// `name` or `name{label="value",...}`: names are [a-z_][a-z0-9_]*, values any text without `"`,
// `\` or control characters; spaces around `{`, `,`, `=` and `}` are allowed. A label may appear
// once. nullopt when the text is not such a selector.
[[nodiscard]] std::optional<SignalSelector> parse_signal_selector(std::string_view text);

// Each comparison as a rule's `op` writes it.
inline constexpr EnumName<Comparison> kComparisons[] = {{Comparison::greater, ">"},
                                                        {Comparison::greater_equal, ">="},
                                                        {Comparison::less, "<"},
                                                        {Comparison::less_equal, "<="}};
static_assert(names_are_distinct(kComparisons));

// ">", ">=", "<", "<=".
[[nodiscard]] std::optional<Comparison> parse_comparison(std::string_view text);
[[nodiscard]] std::string_view comparison_text(Comparison op);

// Whether `value op threshold` holds. NaN never does.
[[nodiscard]] constexpr bool compare(Comparison op, double value, double threshold) noexcept {
  switch (op) {
    case Comparison::greater:
      return value > threshold;
    case Comparison::greater_equal:
      return value >= threshold;
    case Comparison::less:
      return value < threshold;
    case Comparison::less_equal:
      return value <= threshold;
  }
  return false;
}

// Rule names are file-name safe: one or more of a-z, 0-9, '_' and '-'.
[[nodiscard]] bool is_rule_name(std::string_view name);

}  // namespace flightrec::config
