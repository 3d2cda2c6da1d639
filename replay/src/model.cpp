#include "flightrec/replay/model.h"

#include <utility>

#include "flightrec/common/time_format.h"
#include "flightrec/recording/time_param.h"

namespace flightrec::replay {
namespace {

std::vector<double> scales_of(const recording::Metadata& meta) {
  std::vector<double> scales;
  for (const auto& series : meta.series) scales.push_back(series.scale);
  return scales;
}

// The time axis without system frames: the process frames', else the container frames'.
std::vector<int64_t> frame_times(const ProcessHistory& processes, const ReplayData& data) {
  std::vector<int64_t> times = processes.times();
  if (!times.empty()) return times;
  for (const auto& frame : data.container_frames) times.push_back(frame.time_unix_ns);
  return times;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// "07:46:35" or "07:46:35.123": a time of day without a date.
bool is_time_of_day(std::string_view text) {
  if (text.size() < 8 || text[2] != ':' || text[5] != ':') return false;
  for (size_t i = 0; i < 8; ++i) {
    if (i != 2 && i != 5 && !is_digit(text[i])) return false;
  }
  return text.size() == 8 || (text[8] == '.' && text.size() > 9);
}

// The time of day on the recording's first date, else on its last date (a window that crosses
// midnight), whichever falls inside the window; else the one nearer to it.
recording::TimeParse time_of_day(std::string_view text, int64_t start_ns, int64_t end_ns) {
  recording::TimeParse best;
  int64_t best_distance = -1;
  for (const int64_t day : {start_ns, end_ns}) {
    const std::string date = format_rfc3339_ms(day).substr(0, 10);
    auto parsed = recording::parse_time_param("time", date + "T" + std::string(text) + "Z", 0);
    if (!parsed.ok()) return parsed;
    const int64_t distance = parsed.real_ns < start_ns ? start_ns - parsed.real_ns
                             : parsed.real_ns > end_ns ? parsed.real_ns - end_ns
                                                       : 0;
    if (best_distance < 0 || distance < best_distance) {
      best = parsed;
      best_distance = distance;
    }
  }
  return best;
}

}  // namespace

Model::Model(ReplayData data, UserNames users)
    : data_(std::move(data)),
      processes_(std::move(data_.process_frames), std::move(data_.process_blocks)),
      users_(std::move(users)),
      samples_(data_.blocks, scales_of(data_.meta)),
      series_(data_.meta),
      timeline_(samples_.size() > 0 ? samples_.times() : frame_times(processes_, data_)),
      triggers_(triggers_of(data_.meta)) {}

SystemView Model::system(size_t cursor, int64_t interval_ns) const {
  if (samples_.size() == 0) {
    SystemView view;
    if (cursor < timeline_.size()) view.time_ns = timeline_.time(cursor);
    return view;
  }
  return series_.view(samples_, cursor, timeline_.interval_start(cursor, interval_ns));
}

ProcessesAt Model::processes(size_t cursor, int64_t interval_ns, int64_t grow_span_ns) const {
  if (cursor >= timeline_.size()) return {};
  // MemTotal comes from the system series at the cursor; MEM% needs nothing else of them.
  const auto mem_total = samples_.size() > 0 ? series_.mem_total(samples_, cursor) : std::nullopt;
  return processes_at(processes_, timeline_.time(cursor), interval_ns, grow_span_ns, mem_total,
                      data_.container_frames);
}

ContainersAt Model::containers(size_t cursor, int64_t interval_ns) const {
  if (cursor >= timeline_.size()) return {};
  return containers_at(data_.container_frames, timeline_.time(cursor), interval_ns);
}

container::ContainerStrip Model::strip(size_t cursor, std::string_view path, size_t cells) const {
  if (cursor >= timeline_.size()) return {};
  return container::container_strip(data_.container_frames, path, timeline_.time(cursor), cells);
}

Table Model::table(size_t cursor, int64_t interval_ns, Tab tab, const Arrangement& how,
                   int64_t grow_span_ns) const {
  // Each tab's rows come from one kind of frame: the other is not looked up. Only the Processes
  // tab shows RSS growth, which may decode the block its span starts in.
  const bool containers_tab = tab == Tab::containers;
  if (tab != Tab::processes) grow_span_ns = 0;
  Table table = build_table(
      tab, containers_tab ? ProcessesAt{} : processes(cursor, interval_ns, grow_span_ns),
      containers_tab ? containers(cursor, interval_ns) : ContainersAt{}, users_);
  arrange(table, how);
  return table;
}

Result<int64_t> parse_cursor_time(std::string_view text, int64_t start_ns, int64_t end_ns) {
  if (text == "start") return start_ns;
  if (text == "end") return end_ns;
  if (text.starts_with('+')) {
    // The dump parser reads "-D" as D before its `now`: offsets from the start reuse it.
    const auto back = recording::parse_time_param("time", "-" + std::string(text.substr(1)), 0);
    if (!back.ok()) return Error{"time: \"" + std::string(text) + "\" is not an offset like +2.5s"};
    return start_ns - back.real_ns;
  }
  auto parsed = is_time_of_day(text) ? time_of_day(text, start_ns, end_ns)
                                     : recording::parse_time_param("time", text, end_ns);
  if (!parsed.ok()) {
    // RFC 3339 without a zone ("2026-11-30 07:46:36"): UTC, the zone replay shows times in.
    const auto utc = recording::parse_time_param("time", std::string(text) + "Z", end_ns);
    if (utc.ok() || !utc.reason.empty()) parsed = utc;
  }
  if (!parsed.ok() && !parsed.reason.empty()) {
    // A time's form with a value that is none ("out of range", "month 13 out of range").
    return Error{"time: \"" + std::string(text) + "\" is not a time (" + parsed.reason + ")"};
  }
  if (!parsed.ok()) {
    return Error{"time: \"" + std::string(text) +
                 "\" is not a time (examples: 2026-11-30T05:00:00.250Z, 2026-11-30 05:00:00, "
                 "05:00:00.250, 1764478800.25, +2.5s, -1s, start, end)"};
  }
  return parsed.real_ns;
}

CursorPlace place_cursor(const Timeline& timeline, std::string_view text, int64_t time_ns) {
  if (timeline.empty()) return {};
  const size_t index = timeline.at_or_before(time_ns);
  const bool before = time_ns < timeline.start();
  if (!before && time_ns <= timeline.end()) return {index, {}};
  const int64_t edge = before ? timeline.start() : timeline.end();
  return {index, std::string(text) + " (" + format_rfc3339_ms(time_ns) + ") is " +
                     (before ? "before the recording's start " : "after the recording's end ") +
                     format_rfc3339_ms(edge) + ": showing its " + (before ? "start" : "end")};
}

std::optional<int64_t> parse_interval(std::string_view text) {
  if (text == "sample") return 0;
  if (text.starts_with('-') || text.starts_with('+')) return std::nullopt;
  const auto parsed = recording::parse_time_param("interval", "-" + std::string(text), 0);
  if (!parsed.ok() || parsed.real_ns > 0) return std::nullopt;
  return -parsed.real_ns;
}

}  // namespace flightrec::replay
