#include "flightrec/replay/batch.h"

#include <cstdio>

#include "flightrec/common/json_writer.h"
#include "flightrec/common/time_format.h"
#include "flightrec/replay/format.h"
#include "flightrec/replay/table_layout.h"

namespace flightrec::replay {
namespace {

using container::ContainerStrip;
using container::strip_source_name;
using container::strip_summary;
using container::strip_text;
using container::StripCell;
using container::StripSource;

// The period strip of each container in batch output: 5 s of 100 ms periods.
constexpr size_t kStripCells = 50;

std::string rate(std::optional<double> bps) { return format_bytes(bps) + "/s"; }

std::string_view no_containers_note(const Model& model) {
  return model.has_containers() ? "no container frame at or before the cursor"
                                : "no container frames in this recording";
}

// Under the Containers tab's table: each container's strip, as the TUI shows the selected one's.
std::string strips_text(const Model& model, const BatchView& view, const Table& table) {
  std::string out;
  for (const Row& row : table.rows) {
    const ContainerStrip strip = model.strip(view.cursor, row.key, kStripCells);
    out += "periods   " + row.cells.back().text + ": ";
    if (strip.source == StripSource::none) {
      out += "no CPU quota, or no read of its periods here\n";
      continue;
    }
    out += strip_summary(strip) + " (" + format_duration(strip.period_ns) + " periods, " +
           std::string(strip_source_name(strip.source)) + ")\n          [" + strip_text(strip) +
           "]\n";
  }
  return out;
}

void write_strips(JsonWriter& json, const Model& model, const BatchView& view, const Table& table) {
  json.key("period_strips").begin_array();
  for (const Row& row : table.rows) {
    const ContainerStrip strip = model.strip(view.cursor, row.key, kStripCells);
    json.begin_object().key("path").string(row.key);
    json.key("source").string(strip_source_name(strip.source));
    json.key("period_seconds").number(static_cast<double>(strip.period_ns) / 1e9);
    json.key("cells").begin_array();
    for (const StripCell& cell : strip.cells) {
      json.begin_object().key("start").string(format_rfc3339_ms(cell.start_ns));
      json.key("periods").number(cell.periods);
      json.key("throttled").boolean(cell.throttled);
      json.key("throttled_seconds").number(static_cast<double>(cell.throttled_ns) / 1e9);
      json.end_object();
    }
    json.end_array();
    json.end_object();
  }
  json.end_array();
}

void optional_number(JsonWriter& json, std::string_view key, std::optional<double> v) {
  json.key(key);
  if (v) {
    json.number(*v);
  } else {
    json.null();
  }
}

// The label as the screen shows it, then the stored description with its text exact (JSON
// escapes it): a manual request's reason may hold anything the client sent.
void write_triggers(JsonWriter& json, const std::vector<Trigger>& triggers) {
  json.key("triggers").begin_array();
  for (const auto& trigger : triggers) {
    const model::IncidentDescription& incident = trigger.incident;
    json.begin_object().key("label").string(trigger.label);
    json.key("time").string(format_rfc3339_ms(trigger.time_ns));
    json.key("kind").string(model::kind_name(incident.kind));
    json.key("rule").string(incident.rule);
    json.key("condition").string(incident.condition);
    json.key("value").number(incident.value);
    json.key("series").string(incident.series);
    json.key("reason").string(incident.reason);
    json.key("details").begin_object();
    for (const auto& [key, text] : incident.details) json.key(key).string(text);
    json.end_object();
    json.end_object();
  }
  json.end_array();
}

std::string text_view(const Model& model, const BatchView& view, const Table& table) {
  const SystemView system = model.system(view.cursor, view.interval_ns);
  const int64_t now = model.timeline().time(view.cursor);
  const int64_t start = model.timeline().start();
  std::string out;
  out += "time      " + format_rfc3339_ms(now) + " (" + format_offset(now - start) + " of " +
         format_duration(model.timeline().end() - start) + ", sample " +
         std::to_string(view.cursor + 1) + "/" + std::to_string(model.timeline().size()) + ")\n";
  out += "host      " + (model.meta().host.empty() ? std::string("-") : model.meta().host) +
         (system.interval_ns > 0 ? ", rates over " + format_duration(system.interval_ns)
                                 : std::string(", no rates (no earlier sample)")) +
         (view.tab == Tab::processes ? ", RGROW over " + grow_span_text(view.grow_span_ns)
                                     : std::string()) +
         "\n";
  out += "cpu       all " + format_percent(system.cpu_total) + "%";
  for (const auto& cpu : system.cpus) out += ", " + cpu.cpu + " " + format_percent(cpu.ratio) + "%";
  out += "\nmemory    " + format_bytes(system.mem_used_bytes) + " of " +
         format_bytes(system.mem_total_bytes) + " used, swap " +
         format_bytes(system.swap_used_bytes) + " of " + format_bytes(system.swap_total_bytes) +
         "\n";
  const auto load = [](std::optional<double> v) {
    if (!v) return std::string("-");
    char text[32];
    std::snprintf(text, sizeof text, "%.2f", *v);
    return std::string(text);
  };
  out += "load      " + load(system.load1) + " " + load(system.load5) + " " + load(system.load15) +
         "\n";
  out += "pressure ";
  if (system.pressure.empty()) out += " -";
  for (const auto& p : system.pressure) {
    out += " " + p.resource + " some " + format_percent(p.some) + "% full " +
           format_percent(p.full) + "%;";
  }
  out += "\ndisk      read " + rate(system.disk_read_bps) + ", write " +
         rate(system.disk_write_bps) + "\n";
  out += "network   rx " + rate(system.net_rx_bps) + ", tx " + rate(system.net_tx_bps) + "\n";
  for (const auto& trigger : model.triggers()) {
    out += "trigger   " + trigger.label + " at " + format_rfc3339_ms(trigger.time_ns) + " (" +
           format_offset(trigger.time_ns - start) + ")\n";
    for (const auto& line : trigger.detail_lines) out += line + "\n";
  }
  out += "\n[" + std::string(tab_title(view.tab)) + "] " + std::to_string(table.rows.size()) +
         " rows\n";
  if (view.tab == Tab::containers && table.rows.empty()) {
    return out + std::string(no_containers_note(model)) + "\n";
  }
  out += render_table_text(table);
  if (view.tab == Tab::containers) out += strips_text(model, view, table);
  return out;
}

std::string json_view(const Model& model, const BatchView& view, const Table& table) {
  const SystemView system = model.system(view.cursor, view.interval_ns);
  const int64_t now = model.timeline().time(view.cursor);
  std::string out;
  {
    JsonWriter json(out, 1);
    json.begin_object();
    json.key("schema_version").number(1);
    json.key("host").string(model.meta().host);
    json.key("time").string(format_rfc3339_ms(now));
    json.key("time_unix_ns").number(now);
    json.key("offset_seconds").number(static_cast<double>(now - model.timeline().start()) / 1e9);
    json.key("interval_seconds").number(static_cast<double>(system.interval_ns) / 1e9);
    // "10s", or "all" for the recording up to the cursor: what the rows' rss_growth_bytes cover.
    if (view.tab == Tab::processes) json.key("grow_span").string(grow_span_text(view.grow_span_ns));
    json.key("system").begin_object();
    optional_number(json, "cpu_busy_ratio", system.cpu_total);
    json.key("cpus").begin_array();
    for (const auto& cpu : system.cpus) {
      json.begin_object().key("cpu").string(cpu.cpu);
      optional_number(json, "busy_ratio", cpu.ratio);
      json.end_object();
    }
    json.end_array();
    optional_number(json, "memory_total_bytes", system.mem_total_bytes);
    optional_number(json, "memory_used_bytes", system.mem_used_bytes);
    optional_number(json, "swap_total_bytes", system.swap_total_bytes);
    optional_number(json, "swap_used_bytes", system.swap_used_bytes);
    optional_number(json, "load1", system.load1);
    optional_number(json, "load5", system.load5);
    optional_number(json, "load15", system.load15);
    json.key("pressure").begin_array();
    for (const auto& p : system.pressure) {
      json.begin_object().key("resource").string(p.resource);
      optional_number(json, "some_ratio", p.some);
      optional_number(json, "full_ratio", p.full);
      json.end_object();
    }
    json.end_array();
    optional_number(json, "disk_read_bytes_per_second", system.disk_read_bps);
    optional_number(json, "disk_write_bytes_per_second", system.disk_write_bps);
    optional_number(json, "network_receive_bytes_per_second", system.net_rx_bps);
    optional_number(json, "network_transmit_bytes_per_second", system.net_tx_bps);
    json.end_object();
    write_triggers(json, model.triggers());
    json.key("tab").string(tab_name(view.tab));
    json.key("rows").begin_array();
    for (const Row& row : table.rows) {
      json.begin_object();
      for (size_t c = 0; c < table.columns.size(); ++c) {
        const Cell& cell = row.cells[c];
        if (!cell.parts.empty()) {
          for (const auto& [key, value] : cell.parts) optional_number(json, key, value);
        } else if (cell.number) {
          json.key(table.columns[c].key).number(*cell.number);
        } else if (cell.text == "-") {
          json.key(table.columns[c].key).null();
        } else {
          json.key(table.columns[c].key)
              .string(cell.full_text.empty() ? cell.text : cell.full_text);
        }
      }
      if (table.tab == Tab::processes) json.key("depth").number(row.depth);
      if (table.tab == Tab::containers) json.key("path").string(row.key);
      json.end_object();
    }
    json.end_array();
    if (table.tab == Tab::containers) {
      if (table.rows.empty()) json.key("note").string(no_containers_note(model));
      write_strips(json, model, view, table);
    }
    json.end_object();
  }
  out += '\n';
  return out;
}

}  // namespace

std::string render_table_text(const Table& table) {
  const TableLayout layout = layout_table(table, kUnlimitedWidth);
  std::string out;
  const auto add = [&](const Row* row) {
    std::string line = layout_line(table, layout, row, Overflow::push);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + '\n';
  };
  add(nullptr);
  for (const Row& row : table.rows) add(&row);
  return out;
}

std::string render_batch(const Model& model, const BatchView& view, BatchFormat format) {
  if (model.timeline().empty()) {
    return format == BatchFormat::json ? "{\"schema_version\":1,\"rows\":[]}\n"
                                       : "the recording holds no samples\n";
  }
  const Table table =
      model.table(view.cursor, view.interval_ns, view.tab, view.arrangement, view.grow_span_ns);
  return format == BatchFormat::json ? json_view(model, view, table)
                                     : text_view(model, view, table);
}

}  // namespace flightrec::replay
