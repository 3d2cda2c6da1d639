#include "flightrec/replay/replay_data.h"

#include <cmath>
#include <optional>
#include <string>
#include <utility>

#include "flightrec/common/number_format.h"
#include "flightrec/model/oom_memory.h"
#include "flightrec/replay/format.h"

namespace flightrec::replay {
namespace {

// ", killed 468 python3 (71.0M)" for an OOM incident that names its victim: the size the kernel
// log gave, else the exit report's peak.
std::string victim_of(const model::OomKillDetails& kill) {
  if (kill.victim_pid == 0) return {};
  std::string text = ", killed " + std::to_string(kill.victim_pid) + " " + kill.victim_command;
  if (kill.victim_rss_bytes) {
    text += " (" + format_bytes(static_cast<double>(*kill.victim_rss_bytes)) + ")";
  } else if (kill.victim_exit_peak_rss_bytes) {
    text += " (peak " + format_bytes(static_cast<double>(*kill.victim_exit_peak_rss_bytes)) + ")";
  }
  return text;
}

// Which sources named the victim, in words.
std::string sources_of(const std::string& source) {
  if (source == "kernel_log") return "the kernel log";
  if (source == "ebpf_exit") return "the eBPF exit report";
  if (source == "kernel_log+ebpf_exit") return "the kernel log and the eBPF exit report";
  return source.empty() ? "the kernel log" : source;  // incidents from before the exit reports
}

// "468 python3, cgroup /a/b, 71.0M when killed, peak 72.0M at exit, named by the kernel log", or
// why no victim is named.
std::string victim_summary(const model::OomKillDetails& kill) {
  if (kill.victim_pid <= 0) {
    return kill.victim_unknown.empty() ? std::string("unknown") : kill.victim_unknown;
  }
  std::string text = std::to_string(kill.victim_pid) + " " + kill.victim_command;
  if (!kill.victim_cgroup.empty()) text += ", cgroup " + kill.victim_cgroup;
  if (kill.victim_rss_bytes) {
    text += ", " + format_bytes(static_cast<double>(*kill.victim_rss_bytes)) + " when killed";
  }
  if (kill.victim_exit_peak_rss_bytes) {
    text += ", peak " + format_bytes(static_cast<double>(*kill.victim_exit_peak_rss_bytes)) +
            " at exit";
  }
  return text + ", named by " + sources_of(kill.victim_source);
}

// The reason is whatever a client sent with POST /-/trigger: printable() keeps it from moving the
// cursor or changing colours on the terminal that shows it.
std::string label_of(const model::IncidentDescription& incident,
                     const model::OomKillDetails& kill) {
  std::string label = incident.rule.empty() ? std::string("trigger") : incident.rule;
  if (!incident.condition.empty()) label += ": " + incident.condition;
  // A manual incident has no value (NaN): no rule measured anything.
  if (std::isfinite(incident.value)) label += " (value " + number_text(incident.value) + ")";
  if (!incident.reason.empty()) label += ": " + incident.reason;
  label += victim_of(kill);
  return printable(label);
}

// The kill's time and victim from an OOM incident's details (trigger/oom_victims.h).
void add_oom_kill(const model::OomKillDetails& kill, Trigger& trigger) {
  trigger.oom_kill = kill.any;
  trigger.victim_pid = kill.victim_pid;
  if (kill.any) trigger.victim_summary = printable(victim_summary(kill));
  if (kill.killed_at_ns > 0) trigger.focus_ns = kill.killed_at_ns;
  if (kill.victim_pid > 0) {
    trigger.victim = printable(std::to_string(kill.victim_pid) + " " + kill.victim_command);
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
  const model::OomKillDetails kill = model::oom_kill_details(*incident);
  Trigger trigger{.time_ns = incident->fired_at_ns, .label = label_of(*incident, kill)};
  trigger.focus_ns = trigger.time_ns;
  add_oom_kill(kill, trigger);
  trigger.incident = std::move(*incident);
  return {std::move(trigger)};
}

}  // namespace flightrec::replay
