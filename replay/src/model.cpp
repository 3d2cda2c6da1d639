#include "flightrec/replay/model.h"

#include <utility>

#include "flightrec/recording/time_param.h"

namespace flightrec::replay {
namespace {

std::vector<double> scales_of(const recording::Metadata& meta) {
  std::vector<double> scales;
  for (const auto& series : meta.series) scales.push_back(series.scale);
  return scales;
}

std::vector<int64_t> process_times(const ReplayData& data) {
  std::vector<int64_t> times;
  for (const auto& frame : data.process_frames) times.push_back(frame.time_unix_ns);
  return times;
}

}  // namespace

Model::Model(ReplayData data, UserNames users)
    : data_(std::move(data)),
      users_(std::move(users)),
      samples_(data_.blocks, scales_of(data_.meta)),
      series_(data_.meta.series),
      timeline_(samples_.size() > 0 ? samples_.times() : process_times(data_)),
      triggers_(triggers_of(data_.meta)) {}

SystemView Model::system(size_t cursor, int64_t interval_ns) const {
  if (samples_.size() == 0) {
    SystemView view;
    if (cursor < timeline_.size()) view.time_ns = timeline_.time(cursor);
    return view;
  }
  return series_.view(samples_, cursor, timeline_.interval_start(cursor, interval_ns));
}

ProcessesAt Model::processes(size_t cursor, int64_t interval_ns) const {
  if (cursor >= timeline_.size()) return {};
  // MemTotal comes from the system series at the cursor; MEM% needs nothing else of them.
  const auto mem_total = samples_.size() > 0
                             ? series_.view(samples_, cursor, std::nullopt).mem_total_bytes
                             : std::nullopt;
  return processes_at(data_.process_frames, timeline_.time(cursor), interval_ns, mem_total);
}

Table Model::table(size_t cursor, int64_t interval_ns, Tab tab, const Arrangement& how) const {
  Table table = build_table(tab, processes(cursor, interval_ns), users_);
  arrange(table, how);
  return table;
}

CursorTime parse_cursor_time(std::string_view text, int64_t start_ns, int64_t end_ns) {
  if (text == "start") return {start_ns, {}};
  if (text == "end") return {end_ns, {}};
  if (text.starts_with('+')) {
    // The dump parser reads "-D" as D before its `now`: offsets from the start reuse it.
    const auto back = recording::parse_time_param("time", "-" + std::string(text.substr(1)), 0);
    if (!back.ok()) return {0, "time: \"" + std::string(text) + "\" is not an offset like +2.5s"};
    return {start_ns - back.real_ns, {}};
  }
  const auto parsed = recording::parse_time_param("time", text, end_ns);
  if (!parsed.ok()) {
    return {0, "time: \"" + std::string(text) +
                   "\" is not a time (examples: 2026-11-30T05:00:00.250Z, 1764478800.25, +2.5s, "
                   "-1s, start, end)"};
  }
  return {parsed.real_ns, {}};
}

std::optional<int64_t> parse_interval(std::string_view text) {
  if (text == "sample") return 0;
  if (text.starts_with('-') || text.starts_with('+')) return std::nullopt;
  const auto parsed = recording::parse_time_param("interval", "-" + std::string(text), 0);
  if (!parsed.ok() || parsed.real_ns > 0) return std::nullopt;
  return -parsed.real_ns;
}

}  // namespace flightrec::replay
