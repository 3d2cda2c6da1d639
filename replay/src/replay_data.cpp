#include "flightrec/replay/replay_data.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "flightrec/common/printable.h"
#include "flightrec/model/alert_details.h"
#include "flightrec/model/container_details.h"
#include "flightrec/model/oom_memory.h"
#include "flightrec/model/value_text.h"
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

// "name      text" on one line: a control character in the text (a line break in an alert's
// description too) is written as \xNN, so that it neither drives the terminal nor starts a line
// that reads as another; then one column per byte, as the screen draws it (format.h's printable).
void add_detail(std::vector<std::string>& lines, std::string_view name, std::string_view text) {
  std::string line(name);
  line.resize(std::max<size_t>(line.size() + 1, 10), ' ');
  line += flightrec::printable(escape_unprintable(text, Newlines::escape), Charset::ascii);
  lines.push_back(std::move(line));
}

// The reason is whatever a client sent with POST /-/trigger: printable() keeps it from moving the
// cursor or changing colours on the terminal that shows it.
std::string label_of(const model::IncidentDescription& incident, const model::OomKillDetails& kill,
                     const model::AlertDetails& alert) {
  std::string label = incident.rule.empty() ? std::string("trigger") : incident.rule;
  // "alert: alertmanager alert: <summary>" would say neither which alert nor how bad.
  if (incident.kind == model::IncidentKind::alert) {
    return printable(label + ": " + model::alert_headline(incident, alert));
  }
  if (!incident.condition.empty()) label += ": " + incident.condition;
  // A manual incident has no value (NaN): no rule measured anything.
  // In the unit the series names, as `flightrec incidents` shows it: 2.36 GiB, not 2535002112.
  if (std::isfinite(incident.value)) {
    // Older files name no series: their condition (or, older still, their rule) starts with
    // the signal's name.
    const std::string& named = !incident.series.empty()      ? incident.series
                               : !incident.condition.empty() ? incident.condition
                                                             : incident.rule;
    const std::string_view series = std::string_view(named).substr(0, named.find(' '));
    label += " (value " + model::value_text(series, incident.value) + ")";
  }
  if (!incident.reason.empty()) label += ": " + incident.reason;
  label += victim_of(kill);
  // A container rule's container, or an OOM victim's.
  if (const std::string container = model::container_name(incident); !container.empty()) {
    label += " in " + container;
  }
  return printable(label);
}

// The kill's time and victim from an OOM incident's details (trigger/oom_victims.h).
void add_oom_kill(const model::OomKillDetails& kill, Trigger& trigger) {
  trigger.oom_kill = kill.any;
  trigger.victim_pid = kill.victim_pid;
  if (kill.any) add_detail(trigger.detail_lines, "victim", victim_summary(kill));
  if (kill.killed_at_ns > 0) trigger.focus_ns = kill.killed_at_ns;
  if (kill.victim_pid > 0) {
    trigger.victim = printable(std::to_string(kill.victim_pid) + " " + kill.victim_command);
  }
}

// An alert incident's labels, annotations and generatorURL, as sent: printable() in add_detail.
void add_alert(const model::IncidentDescription& incident, const model::AlertDetails& alert,
               Trigger& trigger) {
  if (incident.kind != model::IncidentKind::alert) return;
  add_detail(trigger.detail_lines, "labels", model::label_set_text(alert.labels));
  for (const auto& [name, text] : alert.annotations) {
    std::string annotation = name;
    annotation.append(": ").append(text);
    add_detail(trigger.detail_lines, "annotation", annotation);
  }
  if (!alert.generator_url.empty()) {
    add_detail(trigger.detail_lines, "generator", alert.generator_url);
  }
}

}  // namespace

ReplayData from_recording(recording::Recording&& recording) {
  ReplayData data;
  data.meta = std::move(recording.meta);
  data.blocks = std::move(recording.blocks);
  data.process_frames = std::move(recording.process_frames);
  data.process_blocks = std::move(recording.process_blocks);
  data.container_frames = std::move(recording.container_frames);
  return data;
}

std::vector<Trigger> triggers_of(const recording::Metadata& meta) {
  auto incident = model::decode_incident(meta);
  if (!incident || incident->fired_at_ns == 0) return {};
  const model::OomKillDetails kill = model::oom_kill_details(*incident);
  const model::AlertDetails alert = model::alert_details(*incident);
  Trigger trigger{.time_ns = incident->fired_at_ns, .label = label_of(*incident, kill, alert)};
  trigger.focus_ns = trigger.time_ns;
  add_oom_kill(kill, trigger);
  add_alert(*incident, alert, trigger);
  // Last, so the lines the label leaves out come first.
  add_detail(trigger.detail_lines, "kind", model::kind_name(incident->kind));
  trigger.incident = std::move(*incident);
  return {std::move(trigger)};
}

}  // namespace flightrec::replay
