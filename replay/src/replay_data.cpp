#include "flightrec/replay/replay_data.h"

#include <charconv>
#include <cmath>
#include <utility>

namespace flightrec::replay {
namespace {

// The keys incident files write (incidents/src/incident_file.cpp).
constexpr std::string_view kFiredAtKey = "incident.fired_at_ns";
constexpr std::string_view kRuleKey = "incident.rule";
constexpr std::string_view kValueKey = "incident.value";

// A rule's value worth printing: a manual incident writes "nan" (no rule measured anything).
bool has_value(const std::string& text) {
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc{} && end == text.data() + text.size() && std::isfinite(value);
}

}  // namespace

ReplayData from_recording(recording::Recording&& recording) {
  ReplayData data;
  data.meta = std::move(recording.meta);
  data.blocks = std::move(recording.blocks);
  data.process_frames = std::move(recording.process_frames);
  return data;
}

std::vector<Trigger> triggers_of(const recording::Metadata& meta) {
  std::vector<Trigger> triggers;
  std::string rule;
  std::string value;
  for (const auto& [key, text] : meta.extra) {
    if (key == kRuleKey) rule = text;
    if (key == kValueKey) value = text;
  }
  for (const auto& [key, text] : meta.extra) {
    if (key != kFiredAtKey) continue;
    int64_t fired_at = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), fired_at);
    if (error != std::errc{} || end != text.data() + text.size()) continue;
    std::string label = rule.empty() ? std::string("trigger") : rule;
    if (has_value(value)) label += " (value " + value + ")";
    triggers.push_back({fired_at, std::move(label)});
  }
  return triggers;
}

}  // namespace flightrec::replay
