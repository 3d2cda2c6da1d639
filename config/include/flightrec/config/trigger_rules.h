#pragma once
// The pieces of a trigger rule written as text: signal selectors, comparisons and rule names.
// The loader uses them to check `triggers:` (docs/TRIGGERS.md); the trigger component uses them to
// describe rules in incidents.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "flightrec/common/enum_names.h"
#include "flightrec/common/regex.h"
#include "flightrec/common/result.h"
#include "flightrec/config/config.h"

namespace flightrec::config {

// `name` or `name{label="value",...}` with the matchers =, !=, =~ and !~: names are
// [a-z_][a-z0-9_]*, values any text without control characters, `\\` for a backslash and `\"` for
// a quote (PromQL's); spaces around `{`, `,`, the matcher and `}` are allowed. A label may appear
// once. nullopt when the text is not such a selector.
[[nodiscard]] std::optional<SignalSelector> parse_signal_selector(std::string_view text);

// `pod=~"web-\\d+"`: a matcher as a selector writes it, for messages.
[[nodiscard]] std::string matcher_text(const LabelMatcher& matcher);

// A label matcher ready to compare, its regex compiled once. A regex matches the whole value, as
// Prometheus anchors it: pod=~"web" matches "web", not "web-1".
class CompiledMatcher {
 public:
  // An error names the matcher and says what is wrong with its regex:
  // `label matcher pod=~"(" is not a valid regex (missing ): ()`.
  static Result<CompiledMatcher> compile(LabelMatcher matcher);
  [[nodiscard]] const LabelMatcher& matcher() const noexcept { return matcher_; }
  // Whether a label's value ("" for a label the series lacks) satisfies the matcher.
  [[nodiscard]] bool matches(std::string_view value) const;

 private:
  CompiledMatcher() = default;
  LabelMatcher matcher_;
  std::optional<Regex> regex_;  // =~ and !~ only
};

// Every matcher of the selector compiled, or the first one's error.
[[nodiscard]] Result<std::vector<CompiledMatcher>> compile_matchers(const SignalSelector& selector);

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

// What a rule compares, as its incidents and `flightrec check-config` write it: `signal op value`
// (`cpu_busy_ratio{cpu="total"} > 0.8`, the threshold in its shortest round-trip form), and with
// `over` PromQL's spelling of the same mean, which a Prometheus user reads without looking it up:
// `avg_over_time(cpu_busy_ratio{cpu="total"}[1s]) >= 0.95`.
[[nodiscard]] std::string condition_text(const TriggerRule& rule);

// Rule names are file-name safe: one or more of a-z, 0-9, '_' and '-'.
[[nodiscard]] bool is_rule_name(std::string_view name);

}  // namespace flightrec::config
