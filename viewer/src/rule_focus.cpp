#include "flightrec/viewer/rule_focus.h"

#include <charconv>
#include <string_view>

#include "flightrec/model/signals.h"

namespace flightrec::viewer {
namespace {

namespace names = model::signal_names;

struct Condition {
  std::string_view signal;  // with its {labels}
  double value = 0;
};

// "signal op value", the signal possibly holding spaces inside quoted label values: the value
// and the operator are the last two words.
std::optional<Condition> parse_condition(std::string_view text) {
  const size_t value_at = text.rfind(' ');
  if (value_at == std::string_view::npos || value_at == 0) return std::nullopt;
  const size_t op_at = text.rfind(' ', value_at - 1);
  if (op_at == std::string_view::npos) return std::nullopt;
  const std::string_view op = text.substr(op_at + 1, value_at - op_at - 1);
  if (op != ">" && op != ">=" && op != "<" && op != "<=") return std::nullopt;
  const std::string_view number = text.substr(value_at + 1);
  Condition condition{.signal = text.substr(0, op_at)};
  const auto [end, error] =
      std::from_chars(number.data(), number.data() + number.size(), condition.value);
  if (error != std::errc{} || end != number.data() + number.size()) return std::nullopt;
  return condition;
}

// The chart that plots `name` (key_signals.cpp's placement), "" for a signal the page does not
// chart (memory_used_ratio, raw series, container signals).
std::string_view chart_of(std::string_view name) {
  if (name == names::kCpuBusyRatio) return "cpu";
  if (name == names::kMemoryUsedBytes) return "memory";
  if (name == names::kPressureStallRatio) return "pressure";
  if (name == names::kDiskReadBytesPerSecond || name == names::kDiskWrittenBytesPerSecond) {
    return "disk";
  }
  if (name == names::kNetworkReceiveBytesPerSecond ||
      name == names::kNetworkTransmitBytesPerSecond) {
    return "network";
  }
  return "";
}

}  // namespace

RuleFocus rule_focus(const model::IncidentDescription& incident) {
  RuleFocus focus;
  if (incident.kind == model::IncidentKind::oom_kill) focus.sort = ProcessSort::rss;
  const auto condition = parse_condition(incident.condition);
  if (!condition) return focus;
  if (condition->signal.find("memory") != std::string_view::npos) focus.sort = ProcessSort::rss;
  const std::string_view name = condition->signal.substr(0, condition->signal.find('{'));
  if (const std::string_view chart = chart_of(name); !chart.empty()) {
    focus.threshold = Threshold{
        .chart = std::string(chart), .value = condition->value, .label = incident.condition};
  }
  return focus;
}

}  // namespace flightrec::viewer
