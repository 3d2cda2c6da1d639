#include "flightrec/viewer/page.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "assets.h"
#include "flightrec/common/html_escape.h"
#include "flightrec/common/json_writer.h"
#include "flightrec/common/number_format.h"
#include "flightrec/common/time_format.h"
#include "flightrec/container/frame/frame_strip.h"
#include "flightrec/model/alert_details.h"
#include "flightrec/model/incident_description.h"
#include "flightrec/model/value_text.h"

namespace flightrec::viewer {
namespace {

constexpr int64_t kNsPerSecond = 1'000'000'000;

// A JSON string that cannot end the <script> element it sits in, nor open a comment there.
void append_string(std::string& out, std::string_view text) {
  std::string quoted;
  append_json_string(quoted, text);
  for (const char c : quoted) {
    switch (c) {
      case '<':
        out += "\\u003c";
        break;
      case '>':
        out += "\\u003e";
        break;
      case '&':
        out += "\\u0026";
        break;
      default:
        out += c;
    }
  }
}

// `value` rounded to `decimals` places, in its shortest form; null when it is not a number.
void append_rounded(std::string& out, double value, int decimals) {
  constexpr double kExactIntegers = 9007199254740992.0;  // 2^53
  if (!std::isfinite(value)) {
    out += "null";
    return;
  }
  if (decimals == 0 && std::abs(value) < kExactIntegers) {
    out += std::to_string(std::llround(value));  // 1000000000, not 1e+09
    return;
  }
  const double factor = std::pow(10.0, decimals);
  append_number(out, std::round(value * factor) / factor + 0.0);  // + 0.0: no "-0"
}

void append_optional(std::string& out, const std::optional<double>& value, int decimals) {
  append_rounded(out, value.value_or(std::nan("")), decimals);
}

// Ratios keep 0.01 % steps; byte values and rates whole bytes.
int decimals_for(std::string_view unit) { return unit == "ratio" ? 4 : 0; }

// Unix seconds, exact to the nanosecond and without trailing zeros: "1764478802.25" (a double
// divided by 1e9 would print 1764478802.2499998).
void append_seconds(std::string& out, int64_t unix_ns) {
  int64_t seconds = unix_ns / kNsPerSecond;
  int64_t fraction = unix_ns % kNsPerSecond;
  if (fraction < 0) {
    seconds -= 1;
    fraction += kNsPerSecond;
  }
  out += std::to_string(seconds);
  if (fraction == 0) return;
  std::string digits = std::to_string(fraction);
  digits.insert(0, 9 - digits.size(), '0');
  digits.erase(digits.find_last_not_of('0') + 1);
  out += '.';
  out += digits;
}

void append_times(std::string& out, const SignalWindow& window) {
  const int64_t t0_seconds = window.times_ns.empty() ? 0 : window.times_ns.front() / kNsPerSecond;
  out += ",\n\"t0\":" + std::to_string(t0_seconds) + ",\n\"t\":[";
  for (size_t i = 0; i < window.times_ns.size(); ++i) {
    if (i > 0) out += ',';
    const int64_t micros = (window.times_ns[i] - t0_seconds * kNsPerSecond) / 1000;
    append_number(out, static_cast<double>(micros) / 1e6);
  }
  out += ']';
}

void append_charts(std::string& out, const SignalWindow& window) {
  out += ",\n\"charts\":[";
  for (size_t c = 0; c < window.charts.size(); ++c) {
    const auto& chart = window.charts[c];
    out += c > 0 ? ",\n{\"id\":" : "\n{\"id\":";
    append_string(out, chart.id);
    out += ",\"title\":";
    append_string(out, chart.title);
    out += ",\"unit\":";
    append_string(out, chart.unit);
    out += ",\"lines\":[";
    const int decimals = decimals_for(chart.unit);
    for (size_t l = 0; l < chart.lines.size(); ++l) {
      out += l > 0 ? ",\n{\"label\":" : "\n{\"label\":";
      append_string(out, chart.lines[l].label);
      out += ",\"values\":[";
      for (size_t i = 0; i < chart.lines[l].values.size(); ++i) {
        if (i > 0) out += ',';
        append_rounded(out, chart.lines[l].values[i], decimals);
      }
      out += "]}";
    }
    out += "]}";
  }
  out += ']';
}

// Unix seconds, or null for 0 (no such frame).
void append_moment(std::string& out, int64_t unix_ns) {
  if (unix_ns == 0) {
    out += "null";
  } else {
    append_seconds(out, unix_ns);
  }
}

void append_processes(std::string& out, const TopProcesses& top) {
  out += ",\n\"processes\":{\"from\":";
  if (top.rows.empty()) {
    out += "null,\"to\":null";
  } else {
    append_seconds(out, top.from_ns);
    out += ",\"to\":";
    append_seconds(out, top.to_ns);
  }
  out += ",\"sort\":";
  out += top.sort == ProcessSort::rss ? "\"rss\"" : "\"cpu\"";
  out += ",\"growth_from\":";
  append_moment(out, top.growth_from_ns);
  out += ",\"growth_to\":";
  append_moment(out, top.growth_to_ns);
  out += ",\"rows\":[";
  for (size_t i = 0; i < top.rows.size(); ++i) {
    const auto& row = top.rows[i];
    out += i > 0 ? ",\n{\"pid\":" : "\n{\"pid\":";
    out += std::to_string(row.pid);
    out += ",\"comm\":";
    append_string(out, row.comm);
    out += ",\"cmdline\":";
    append_string(out, row.cmdline);
    out += ",\"state\":";
    append_string(out, std::string_view(&row.state, 1));
    out += ",\"cpu\":";
    append_optional(out, row.cpu_ratio, 4);
    out += ",\"rss\":" + std::to_string(row.rss_bytes);
    out += ",\"growth\":";
    out += row.rss_growth_bytes ? std::to_string(*row.rss_growth_bytes) : "null";
    out += ",\"read\":";
    append_optional(out, row.read_bytes_per_second, 0);
    out += ",\"write\":";
    append_optional(out, row.write_bytes_per_second, 0);
    out += ",\"tx\":";
    append_optional(out, row.transmit_bytes_per_second, 0);
    out += ",\"rx\":";
    append_optional(out, row.receive_bytes_per_second, 0);
    out += '}';
  }
  out += "]}";
}

void append_pairs(std::string& out, const std::vector<std::pair<std::string, std::string>>& pairs) {
  out += '[';
  for (size_t i = 0; i < pairs.size(); ++i) {
    if (i > 0) out += ',';
    out += '[';
    append_string(out, pairs[i].first);
    out += ',';
    append_string(out, pairs[i].second);
    out += ']';
  }
  out += ']';
}

// "threshold":null, or the chart of the rule's signal, the value to draw there and the condition.
void append_threshold(std::string& out, const std::optional<Threshold>& threshold) {
  out += ",\n\"threshold\":";
  if (!threshold) {
    out += "null";
    return;
  }
  out += "{\"chart\":";
  append_string(out, threshold->chart);
  out += ",\"value\":";
  append_number(out, threshold->value);
  out += ",\"label\":";
  append_string(out, threshold->label);
  out += '}';
}

// A detail as a person reads it: a byte count (an OOM victim's "oom.victim_rss_bytes") in binary
// units with the exact number after it; any other text as it is.
std::string detail_text(std::string_view key, const std::string& text) {
  constexpr std::string_view kBytes = "_bytes";
  if (key.size() < kBytes.size() || key.substr(key.size() - kBytes.size()) != kBytes) return text;
  uint64_t bytes = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), bytes);
  if (error != std::errc{} || end != text.data() + text.size()) return text;
  return model::bytes_text(static_cast<double>(bytes)) + " (" + text + ")";
}

// "oom":null, or the kill in Unix seconds, its victim and the top resident sets at it.
void append_oom(std::string& out, const std::optional<OomKillMark>& oom) {
  out += ",\n\"oom\":";
  if (!oom) {
    out += "null";
    return;
  }
  out += "{\"killed_at\":";
  append_seconds(out, oom->killed_at_ns);
  out += ",\"victim\":";
  append_string(out, oom->victim);
  out += ",\"top_rss_at\":";
  if (oom->top_rss_at_ns != 0) {
    append_seconds(out, oom->top_rss_at_ns);
  } else {
    out += "null";
  }
  out += ",\"top_rss\":[";
  for (size_t i = 0; i < oom->top_rss.size(); ++i) {
    if (i > 0) out += ',';
    out += "{\"pid\":" + std::to_string(oom->top_rss[i].pid) + ",\"comm\":";
    append_string(out, oom->top_rss[i].comm);
    out += ",\"rss\":" + std::to_string(oom->top_rss[i].rss_bytes) + '}';
  }
  out += "]}";
}

void append_optionals(std::string& out, const std::vector<std::optional<double>>& values,
                      int decimals) {
  out += '[';
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += ',';
    append_optional(out, values[i], decimals);
  }
  out += ']';
}

void append_strip(std::string& out, const container::ContainerStrip& strip) {
  out += "{\"source\":";
  append_string(out, container::strip_source_name(strip.source));
  out += ",\"period_seconds\":";
  append_number(out, static_cast<double>(strip.period_ns) / 1e9);
  out += ",\"t\":[";
  for (size_t i = 0; i < strip.cells.size(); ++i) {
    if (i > 0) out += ',';
    append_seconds(out, strip.cells[i].start_ns);
  }
  // Throttled ms per period of each cell (a cpu.stat cell of several periods: their mean).
  out += "],\"throttled_ms\":[";
  for (size_t i = 0; i < strip.cells.size(); ++i) {
    if (i > 0) out += ',';
    const auto& cell = strip.cells[i];
    append_rounded(out, static_cast<double>(cell.throttled_ns) / 1e6 / std::max(cell.periods, 1u),
                   3);
  }
  out += "],\"throttled\":[";
  for (size_t i = 0; i < strip.cells.size(); ++i) {
    if (i > 0) out += ',';
    out += strip.cells[i].throttled ? '1' : '0';
  }
  out += "]}";
}

// "containers":[...]: one object per section (layout in docs/VIEWER.md).
void append_containers(std::string& out, const std::vector<ContainerSection>& sections) {
  out += ",\n\"containers\":[";
  for (size_t c = 0; c < sections.size(); ++c) {
    const ContainerSection& s = sections[c];
    out += c > 0 ? ",\n{\"name\":" : "\n{\"name\":";
    append_string(out, s.name);
    out += ",\"path\":";
    append_string(out, s.path);
    out += ",\"id\":";
    append_string(out, s.id);
    out += ",\"image\":";
    append_string(out, s.image);
    out += ",\"reasons\":[";
    for (size_t i = 0; i < s.reasons.size(); ++i) {
      if (i > 0) out += ',';
      append_string(out, s.reasons[i]);
    }
    out += "],\"quota_cores\":";
    append_optional(out, s.quota_cores, 4);
    out += ",\"period_seconds\":";
    append_number(out, static_cast<double>(s.period_ns) / 1e9);
    out += ",\"memory_limit\":";
    append_optional(out, s.memory_limit_bytes, 0);
    out += ",\"memory_high\":";
    append_optional(out, s.memory_high_bytes, 0);
    out += ",\"throttled_periods\":" + std::to_string(s.throttled_periods);
    out += ",\"periods\":" + std::to_string(s.periods);
    out += ",\"events\":{\"high\":" + std::to_string(s.events_high) +
           ",\"max\":" + std::to_string(s.events_max) +
           ",\"oom_kill\":" + std::to_string(s.events_oom_kill) + "}";
    out += ",\"t\":[";
    for (size_t i = 0; i < s.times_ns.size(); ++i) {
      if (i > 0) out += ',';
      append_seconds(out, s.times_ns[i]);
    }
    out += "],\"memory\":";
    append_optionals(out, s.memory_bytes, 0);
    out += ",\"cpu\":";
    append_optionals(out, s.cpu_cores, 4);
    out += ",\"strip\":";
    append_strip(out, s.strip);
    out += '}';
  }
  out += ']';
}

// Where to look at processes when nothing fired: the busiest moment of the first CPU line.
int64_t peak_cpu_time(const SignalWindow& window) {
  if (window.times_ns.empty()) return 0;
  const auto cpu = std::find_if(window.charts.begin(), window.charts.end(),
                                [](const Chart& chart) { return chart.id == "cpu"; });
  if (cpu == window.charts.end() || cpu->lines.empty()) return window.times_ns.back();
  const auto& values = cpu->lines.front().values;
  size_t peak = 0;
  for (size_t i = 1; i < values.size(); ++i) {
    if (values[i] > values[peak] || std::isnan(values[peak])) peak = i;
  }
  return window.times_ns[peak];
}

}  // namespace

ViewOptions incident_view_options(std::string_view id, const recording::Metadata& metadata) {
  const auto incident = model::decode_incident(metadata).value_or(model::IncidentDescription{});
  ViewOptions options{.title = "Incident " + std::string(id)};
  const auto alert = model::alert_details(incident);
  options.labels = alert.labels;
  const RuleFocus focus = rule_focus(incident);
  options.threshold = focus.threshold;
  options.process_sort = focus.sort;
  auto& details = options.details;
  details.emplace_back("kind", model::kind_name(incident.kind));
  details.emplace_back("rule", incident.rule);
  if (!incident.condition.empty()) details.emplace_back("condition", incident.condition);
  // An alert's series is its label set again: the labels table says it once.
  if (!incident.series.empty() && alert.labels.empty()) {
    details.emplace_back("series", incident.series);
  }
  if (!std::isnan(incident.value)) {
    details.emplace_back("value", model::value_text(incident.series, incident.value));
  }
  if (!incident.reason.empty()) details.emplace_back("reason", incident.reason);
  for (const auto& [key, text] : incident.details) {
    if (key.starts_with(model::alert_detail_keys::kLabelPrefix)) continue;
    details.emplace_back(key, detail_text(key, text));
  }
  if (incident.fired_at_ns != 0) {
    details.emplace_back("fired at", format_rfc3339_ms(incident.fired_at_ns));
    options.trigger_ns = incident.fired_at_ns;
  }
  options.oom_kill = oom_kill_mark(incident);
  details.emplace_back("window", format_rfc3339_ms(incident.window_from_ns) + " to " +
                                     format_rfc3339_ms(incident.window_to_ns));
  details.emplace_back("host", metadata.host);
  return options;
}

std::string view_json(const recording::Metadata& metadata, const SignalWindow& window,
                      const TopProcesses& top, const ViewOptions& options) {
  std::string out;
  out.reserve(64 + window.times_ns.size() * 8 * 16);
  out += "{\"title\":";
  append_string(out, options.title);
  out += ",\"details\":";
  append_pairs(out, options.details);
  out += ",\"labels\":";
  append_pairs(out, options.labels);
  out += ",\n\"host\":";
  append_string(out, metadata.host);
  out += ",\"flightrec_version\":";
  append_string(out, metadata.flightrec_version);
  out += ",\"resolution_seconds\":";
  append_number(out, static_cast<double>(metadata.rate_ns) / 1e9);
  out += ",\"frames\":" + std::to_string(window.frames);
  out += ",\"bucket_ticks\":" + std::to_string(window.bucket_ticks);
  out += ",\"trigger\":";
  if (options.trigger_ns) {
    append_seconds(out, *options.trigger_ns);
  } else {
    out += "null";
  }
  append_oom(out, options.oom_kill);
  append_threshold(out, options.threshold);
  append_times(out, window);
  append_charts(out, window);
  append_processes(out, top);
  append_containers(out, options.containers);
  out += "}\n";
  return out;
}

std::string render_view_page(const recording::Metadata& metadata,
                             std::span<const std::shared_ptr<const store::Block>> blocks,
                             std::span<const std::shared_ptr<const store::ProcessBlock>> processes,
                             const ViewOptions& options) {
  const auto window = key_signals(metadata, blocks, options.range, options.max_values);
  const int64_t focus = options.oom_kill ? options.oom_kill->killed_at_ns
                                         : options.trigger_ns.value_or(peak_cpu_time(window));
  const auto top = top_processes(frames_near(processes, focus), focus, options.top_processes,
                                 rss_growth(processes, options.range), options.process_sort);
  const std::string json = view_json(metadata, window, top, options);

  std::string page;
  page.reserve(json.size() + assets::kUplotJs.size() + assets::kViewerJs.size() + 8192);
  page += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  page += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  // An inline icon: otherwise the browser asks the server for /favicon.ico.
  page += "<link rel=\"icon\" href=\"data:,\">\n";
  page += "<title>" + escape_html(options.title) + " - flightrec</title>\n";
  page += "<style>";
  page += assets::kUplotCss;
  page += "</style>\n<style>";
  page += assets::kViewerCss;
  page += "</style>\n</head>\n<body>\n";
  page +=
      "<header><h1 id=\"title\"></h1><dl id=\"details\"></dl>"
      "<table id=\"labels\" hidden><caption>Alert labels</caption><thead><tr><th>Label</th>"
      "<th>Value</th></tr></thead><tbody></tbody></table><p id=\"note\"></p>"
      "<p class=\"help\">Drag across a chart to zoom (all charts follow), double-click to zoom "
      "out.</p></header>\n<main id=\"charts\"></main>\n"
      "<section id=\"processes\"><h2>Top processes</h2><p id=\"processes-note\"></p>"
      "<table id=\"processes-table\"><thead><tr><th data-key=\"pid\">PID</th>"
      "<th data-key=\"comm\">Command</th><th data-key=\"state\">State</th>"
      "<th data-key=\"cpu\">CPU</th><th data-key=\"rss\">RSS</th>"
      "<th data-key=\"growth\">RSS growth</th><th data-key=\"read\">Disk read/s</th>"
      "<th data-key=\"write\">Disk write/s</th><th data-key=\"tx\">Net tx/s</th>"
      "<th data-key=\"rx\">Net rx/s</th><th data-key=\"cmdline\">Command line</th></tr></thead>"
      "<tbody></tbody></table></section>\n"
      "<section id=\"oom\" hidden><h2>Biggest memory consumers at the OOM kill</h2>"
      "<p id=\"oom-note\"></p><table id=\"oom-table\"><thead><tr><th>PID</th><th>Command</th>"
      "<th>RSS</th></tr></thead><tbody></tbody></table></section>\n"
      "<section id=\"containers\" hidden><h2>Containers</h2><p id=\"containers-note\"></p>"
      "<div id=\"containers-list\"></div></section>\n";
  page += "<script type=\"application/json\" id=\"flightrec-data\">";
  page += json;
  page += "</script>\n<script>";
  page += assets::kUplotJs;
  page += "</script>\n<script>";
  page += assets::kViewerJs;
  page += "</script>\n</body>\n</html>\n";
  return page;
}

}  // namespace flightrec::viewer
