#include "flightrec/replay/replay_data.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>

#include "flightrec/common/number_format.h"
#include "flightrec/model/oom_memory.h"
#include "flightrec/replay/format.h"

namespace flightrec::replay {
namespace {

// ", killed 468 python3 (71.0M)" for an OOM incident whose victim the kernel log named.
std::string victim_of(const model::IncidentDescription& incident) {
  namespace keys = model::incident_details;
  std::string pid;
  std::string command;
  std::optional<double> rss;
  for (const auto& [key, text] : incident.details) {
    if (key == keys::kOomVictimPid) pid = text;
    if (key == keys::kOomVictimCommand) command = text;
    if (key == keys::kOomVictimRssBytes) rss = std::strtod(text.c_str(), nullptr);
  }
  if (pid.empty()) return {};
  return ", killed " + pid + " " + command + (rss ? " (" + format_bytes(rss) + ")" : "");
}

// The reason is whatever a client sent with POST /-/trigger: printable() keeps it from moving the
// cursor or changing colours on the terminal that shows it.
std::string label_of(const model::IncidentDescription& incident) {
  std::string label = incident.rule.empty() ? std::string("trigger") : incident.rule;
  if (!incident.condition.empty()) label += ": " + incident.condition;
  // A manual incident has no value (NaN): no rule measured anything.
  if (std::isfinite(incident.value)) label += " (value " + number_text(incident.value) + ")";
  if (!incident.reason.empty()) label += ": " + incident.reason;
  label += victim_of(incident);
  return printable(label);
}

template <typename Number>
std::optional<Number> number_of(const std::string& text) {
  Number value{};
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc{} || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// The kill's time and victim from an OOM incident's details (trigger/oom_victims.h).
void add_oom_kill(const model::IncidentDescription& incident, Trigger& trigger) {
  namespace keys = model::incident_details;
  std::string command;
  for (const auto& [key, text] : incident.details) {
    if (key.starts_with("oom.")) trigger.oom_kill = true;
    if (key == keys::kOomVictimPid) trigger.victim_pid = number_of<int32_t>(text).value_or(0);
    if (key == keys::kOomVictimCommand) command = text;
    if (key == model::oom_detail_keys::kKilledAtNs) {
      trigger.focus_ns = number_of<int64_t>(text).value_or(trigger.focus_ns);
    }
  }
  if (trigger.victim_pid > 0) {
    trigger.victim = printable(std::to_string(trigger.victim_pid) + " " + command);
  }
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
  auto incident = model::decode_incident(meta);
  if (!incident || incident->fired_at_ns == 0) return {};
  Trigger trigger{.time_ns = incident->fired_at_ns, .label = label_of(*incident)};
  trigger.focus_ns = trigger.time_ns;
  add_oom_kill(*incident, trigger);
  trigger.incident = std::move(*incident);
  return {std::move(trigger)};
}

}  // namespace flightrec::replay
