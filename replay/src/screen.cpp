#include "flightrec/replay/screen.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "flightrec/common/time_format.h"
#include "flightrec/replay/batch.h"
#include "flightrec/replay/format.h"
#include "flightrec/replay/keymap.h"
#include "flightrec/replay/table_layout.h"

namespace flightrec::replay {
namespace {

using container::ContainerStrip;
using container::strip_source_name;
using container::strip_summary;
using container::strip_text;
using container::StripSource;

constexpr size_t kMaxCpuRows = 4;

// What the rates cover: "rate 1s" when that is the interval asked for, "rate 3ms/1s" near the
// start of the window (covered/asked), "no rate" at the first sample.
std::string rate_status(const Session& session) {
  const int64_t covered = session.system().interval_ns;
  const int64_t asked = session.interval_ns();
  if (covered <= 0) return "no rate";
  const std::string asked_text = asked == 0 ? "sample" : format_duration(asked);
  // Sample times jitter: 1.000012s is the 1s asked for, as far as the status line can say.
  const std::string covered_text = format_duration(covered);
  if (covered_text == asked_text) return "rate " + asked_text;
  return "rate " + covered_text + "/" + asked_text;
}

// `line` from character `from` on (the horizontal scroll).
std::string from_column(const std::string& line, size_t from) {
  return from < line.size() ? line.substr(from) : std::string();
}

std::string fit(std::string text, size_t width) {
  if (text.size() > width) text.resize(width);
  text.append(width - text.size(), ' ');
  return text;
}

// htop's meter: "Mem[||||||      1.2G/3.8G]" in exactly `width` characters, the value inside.
void meter(ScreenLine& line, const std::string& label, std::optional<double> ratio,
           const std::string& value, size_t width) {
  const size_t inner = width > label.size() + 2 ? width - label.size() - 2 : 0;
  std::string fill(inner, ' ');
  size_t bars = 0;
  if (ratio) {
    bars =
        static_cast<size_t>(std::lround(std::clamp(*ratio, 0.0, 1.0) * static_cast<double>(inner)));
    std::fill_n(fill.begin(), bars, '|');
  }
  const std::string shown = value.size() < inner ? value : value.substr(0, inner);
  fill.replace(inner - shown.size(), shown.size(), shown);
  const size_t begin = line.text.size() + label.size() + 1;
  line.text += label + "[" + fill + "]";
  const size_t bar_end = std::min(bars, inner - shown.size());
  if (bar_end > 0) line.bars.push_back({begin, begin + bar_end});
}

std::string bytes_of(std::optional<double> used, std::optional<double> total) {
  return format_bytes(used) + "/" + format_bytes(total);
}

std::string rate(std::optional<double> bps) { return format_bytes(bps) + "/s"; }

std::string pressure_text(const SystemView& system) {
  if (system.pressure.empty()) return "PSI: -";
  std::string text = "PSI some:";
  for (const auto& p : system.pressure) {
    text += " " + p.resource.substr(0, 3) + " " + format_percent(p.some) + "%";
  }
  return text;
}

std::string load_text(const SystemView& system) {
  const auto one = [](std::optional<double> v) {
    if (!v) return std::string("-");
    char text[32];
    std::snprintf(text, sizeof text, "%.2f", *v);
    return std::string(text);
  };
  return "Load average: " + one(system.load1) + " " + one(system.load5) + " " + one(system.load15);
}

void header(const Session& session, size_t width, std::vector<ScreenLine>& out) {
  const SystemView& system = session.system();
  const size_t half = std::max<size_t>(width / 2, 1);
  const size_t per_row = system.cpus.size() > 1 ? 2 : 1;
  const size_t rows = (system.cpus.size() + per_row - 1) / per_row;
  if (rows > 0 && rows <= kMaxCpuRows) {
    for (size_t r = 0; r < rows; ++r) {
      ScreenLine line;
      for (size_t c = 0; c < per_row; ++c) {
        const size_t index = r + c * rows;  // htop fills the left column first
        if (index >= system.cpus.size()) break;
        const auto& cpu = system.cpus[index];
        const size_t meter_width =
            per_row == 1 ? width : (c == 0 ? half - 1 : width - std::min(width, half));
        if (c == 1) line.text += ' ';
        std::string label = cpu.cpu;
        if (label.size() < 3) label.insert(0, 3 - label.size(), ' ');
        meter(line, label, cpu.ratio, format_percent(cpu.ratio) + "%", meter_width);
      }
      out.push_back(std::move(line));
    }
  } else {
    ScreenLine line;
    meter(line, "CPU", system.cpu_total,
          format_percent(system.cpu_total) + "% of " + std::to_string(system.cpus.size()), width);
    out.push_back(std::move(line));
  }
  const auto two = [&](auto left_fill, const std::string& right) {
    ScreenLine line;
    left_fill(line);
    line.text = fit(line.text, half);
    line.text += ' ' + right;
    out.push_back(std::move(line));
  };
  const auto share = [](std::optional<double> used, std::optional<double> total) {
    if (!used || !total || *total <= 0) return std::optional<double>();
    return std::optional<double>(*used / *total);
  };
  two(
      [&](ScreenLine& l) {
        meter(l, "Mem", share(system.mem_used_bytes, system.mem_total_bytes),
              bytes_of(system.mem_used_bytes, system.mem_total_bytes), half - 1);
      },
      load_text(system));
  two(
      [&](ScreenLine& l) {
        meter(l, "Swp", share(system.swap_used_bytes, system.swap_total_bytes),
              bytes_of(system.swap_used_bytes, system.swap_total_bytes), half - 1);
      },
      pressure_text(system));
  two(
      [&](ScreenLine& l) {
        l.text = "Disk R " + rate(system.disk_read_bps) + " W " + rate(system.disk_write_bps);
      },
      "Net RX " + rate(system.net_rx_bps) + " TX " + rate(system.net_tx_bps));
}

// "[-----!----#-----------]": the whole window, '#' the cursor, '!' each trigger point.
void timeline(const Session& session, size_t width, std::vector<ScreenLine>& out) {
  const Timeline& tl = session.model().timeline();
  if (width < 3 || tl.empty()) {
    out.push_back({"(no samples)", LineStyle::normal, {}});
    return;
  }
  const size_t inner = width - 2;
  std::string strip(inner, '-');
  const int64_t span = std::max<int64_t>(tl.end() - tl.start(), 1);
  const auto column = [&](int64_t time) {
    const double share = static_cast<double>(std::clamp(time - tl.start(), int64_t{0}, span)) /
                         static_cast<double>(span);
    return std::min(static_cast<size_t>(std::lround(share * static_cast<double>(inner - 1))),
                    inner - 1);
  };
  for (const Trigger& trigger : session.model().triggers()) strip[column(trigger.time_ns)] = '!';
  strip[column(tl.time(session.cursor()))] = '#';
  out.push_back({"[" + strip + "]", LineStyle::normal, {}});

  const int64_t now = tl.time(session.cursor());
  std::string status = format_rfc3339_ms(now) + " " + format_offset(now - tl.start()) + "/" +
                       format_duration(tl.end() - tl.start()) + " " + rate_status(session) +
                       " RGROW " + grow_span_text(session.grow_span_ns());
  char speed[32];
  std::snprintf(speed, sizeof speed, " %s x%g", session.playing() ? "PLAY" : "PAUSED",
                session.speed());
  status += speed;
  if (!session.model().triggers().empty()) {
    const Trigger& first = session.model().triggers().front();
    // The label last: it may be long (a manual request's reason), and fit() cuts the line.
    status += " trigger(!) " + format_offset(first.time_ns - tl.start()) + " " + first.label;
  }
  out.push_back({fit(status, width), LineStyle::normal, {}});
}

void tabs(const Session& session, size_t width, std::vector<ScreenLine>& out) {
  // One space apart: six tabs and a filter still fit 80 columns.
  std::string line;
  for (const TabNames& tab : kTabNames) {
    const std::string title(tab.title);
    if (!line.empty()) line += ' ';
    line += tab.tab == session.tab() ? "[" + title + "]" : title;
  }
  if (!session.filter().empty()) line += " filter: " + session.filter();
  if (session.tree()) line += " (tree)";
  out.push_back({fit(line, width), LineStyle::tabs, {}});
}

std::string key_bar(const Session& session) {
  switch (session.mode()) {
    case Mode::search:
      // htop marks a failed search in colour; here the words say it.
      return "Search: " + session.prompt() + "_   " +
             (session.message().empty() ? "(Enter: keep, Esc: cancel)" : session.message());
    case Mode::filter:
      return "Filter: " + session.prompt() + "_   (Enter: keep, Esc: clear)";
    case Mode::go_to:
      return "Go to (RFC 3339, 07:46:35, Unix s, +2.5s, -1s): " + session.prompt() + "_";
    case Mode::help:
    case Mode::details:
    case Mode::normal:
      break;
  }
  if (!session.message().empty()) return session.message();
  return key_bar_text();
}

// `line` over as many screen lines as it takes, the rest indented to the text's column: the
// details page is there to read a label or a URL whole, which the status line cuts.
void wrap(std::string_view line, size_t width, std::vector<ScreenLine>& out) {
  constexpr size_t kIndent = 10;  // the column the details' text starts in
  // Continuations start in that column, unless the screen is too narrow to spare it.
  const size_t indent = width > 2 * kIndent ? kIndent : 0;
  size_t room = std::max<size_t>(width, 1);
  std::string lead;
  do {
    out.push_back({fit(lead + std::string(line.substr(0, room)), width), LineStyle::normal, {}});
    line.remove_prefix(std::min(room, line.size()));
    lead.assign(indent, ' ');
    room = std::max<size_t>(width - indent, 1);
  } while (!line.empty());
}

// The details pane: each trigger's label and time, then what its label leaves out.
std::vector<std::string> details_lines(const Model& model) {
  std::vector<std::string> lines{"flightrec replay - trigger details (any key returns)"};
  const int64_t start = model.timeline().start();
  for (const Trigger& trigger : model.triggers()) {
    lines.emplace_back("");
    lines.push_back("trigger   " + trigger.label);
    lines.push_back("at        " + format_rfc3339_ms(trigger.time_ns) + " (" +
                    format_offset(trigger.time_ns - start) + ")");
    lines.insert(lines.end(), trigger.detail_lines.begin(), trigger.detail_lines.end());
  }
  return lines;
}

// Under the Containers tab's table: the selected container's period strip up to the cursor, one
// character a period, as wide as the screen.
void period_strip(const Session& session, size_t width, std::vector<ScreenLine>& out) {
  const Table& table = session.table();
  if (session.selected() >= table.rows.size()) {
    out.push_back({fit("", width), LineStyle::normal, {}});
    out.push_back({fit("", width), LineStyle::normal, {}});
    return;
  }
  const Row& row = table.rows[session.selected()];
  const size_t cells = width > 2 ? width - 2 : 1;
  const ContainerStrip strip = session.model().strip(session.cursor(), row.key, cells);
  std::string title = "Periods of " + row.cells.back().text + ": ";
  if (strip.source == StripSource::none) {
    title += "no CPU quota, or no read of its periods here";
    out.push_back({fit(title, width), LineStyle::normal, {}});
    out.push_back({fit("", width), LineStyle::normal, {}});
    return;
  }
  title += strip_summary(strip) + " (" + format_duration(strip.period_ns) + " periods, " +
           std::string(strip_source_name(strip.source)) + ")";
  out.push_back({fit(title, width), LineStyle::normal, {}});
  out.push_back({fit("[" + strip_text(strip) + "]", width), LineStyle::normal, {}});
}

// Whether the line above the table says that it holds one container's processes.
bool narrowed(const Session& session) {
  return session.container() && session.tab() == Tab::processes;
}

// What the table area says when it has no row to show.
std::string empty_table_note(const Session& session) {
  if (session.tab() != Tab::containers) return {};
  if (!session.model().has_containers()) return "no container frames in this recording";
  if (session.table().rows.empty()) return "no container frame at or before the cursor";
  return {};
}

// The period strip's lines under the Containers tab's table.
constexpr size_t kStripLines = 2;

}  // namespace

size_t table_rows(const Session& session, size_t height) {
  const size_t cpus = session.system().cpus.size();
  const size_t per_row = cpus > 1 ? 2 : 1;
  const size_t cpu_rows = (cpus + per_row - 1) / per_row;
  const size_t header_rows = (cpu_rows > 0 && cpu_rows <= kMaxCpuRows ? cpu_rows : 1) + 3;
  const size_t strip = session.tab() == Tab::containers ? kStripLines : 0;
  const size_t scope = narrowed(session) ? 1 : 0;
  const size_t fixed =
      header_rows + 2 /* timeline */ + 1 /* tabs */ + scope + 1 /* columns */ + 1 + strip;
  return height > fixed ? height - fixed : 0;
}

std::vector<ScreenLine> render_screen(const Session& session, size_t width, size_t height) {
  std::vector<ScreenLine> out;
  if (session.mode() == Mode::help) {
    for (const auto& line : help_lines()) out.push_back({fit(line, width), LineStyle::normal, {}});
  } else if (session.mode() == Mode::details) {
    for (const auto& line : details_lines(session.model())) wrap(line, width, out);
  } else {
    header(session, width, out);
    timeline(session, width, out);
    tabs(session, width, out);
    if (narrowed(session)) {
      out.push_back(
          {fit("Only the processes of container " + session.container()->name + " (x: all)", width),
           LineStyle::tabs,
           {}});
    }
    const Table& table = session.table();
    // The sort column is marked in the text (v biggest/last first, ^ smallest first).
    Table header_only{table.tab, table.columns, {}, table.default_sort};
    if (session.sort_column() < header_only.columns.size()) {
      header_only.columns[session.sort_column()].name += session.sort_descending() ? "v" : "^";
    }
    // Laid out from the rows (address widths), the header's sort mark aside.
    const TableLayout layout = layout_table(table, width);
    const auto line = [&](const Table& of, const Row* row) {
      return fit(from_column(layout_line(of, layout, row, Overflow::cut), session.scroll_x()),
                 width);
    };
    out.push_back({line(header_only, nullptr), LineStyle::table_header, {}});
    const size_t rows = table_rows(session, height);
    for (size_t i = session.scroll(); i < table.rows.size() && i < session.scroll() + rows; ++i) {
      out.push_back({line(table, &table.rows[i]),
                     i == session.selected() ? LineStyle::selected : LineStyle::normal,
                     {}});
    }
    if (const std::string note = empty_table_note(session); !note.empty()) {
      out.push_back({fit(note, width), LineStyle::normal, {}});
    }
    if (session.tab() == Tab::containers && height > kStripLines + 1) {
      while (out.size() + 1 + kStripLines < height) {
        out.push_back({std::string(width, ' '), LineStyle::normal, {}});
      }
      period_strip(session, width, out);
    }
  }
  if (out.size() + 1 > height) out.resize(height > 0 ? height - 1 : 0);
  while (out.size() + 1 < height) out.push_back({std::string(width, ' '), LineStyle::normal, {}});
  if (height > 0) {
    out.push_back({fit(key_bar(session), width),
                   session.mode() == Mode::normal ? LineStyle::key_bar : LineStyle::prompt,
                   {}});
  }
  for (auto& line : out) {
    if (line.text.size() > width) line.text.resize(width);
    for (auto& bar : line.bars) bar.end = std::min(bar.end, line.text.size());
  }
  return out;
}

}  // namespace flightrec::replay
