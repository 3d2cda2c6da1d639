#include "flightrec/sampler/sources/stat.h"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

#include "flightrec/sampler/file_reader.h"
#include "flightrec/sampler/kernel_ticks.h"
#include "flightrec/sampler/sources/parsing.h"
#include "series_builder.h"

namespace flightrec::sampler {
namespace {

using parsing::read_count;

constexpr std::string_view kSourcePath = "/proc/stat";

// The non-CPU lines kept, in the order of their values after the CPU runs.
constexpr std::array<std::string_view, kStatScalars> kScalarKeys{"ctxt", "intr", "processes",
                                                                 "procs_running", "procs_blocked"};

// Reads up to out.size() numbers; the first malformed one ends the line, leaving the rest absent.
void read_counts(std::string_view rest, std::span<int64_t> out) noexcept {
  for (int64_t& value : out) {
    if (!read_count(rest, value)) return;
  }
}

// "cpu" lines: the aggregate ("cpu ") or "cpuN". Returns where N's run starts, or nothing.
bool cpu_run_offset(std::string_view& rest, const StatLayout& layout, size_t& offset) noexcept {
  if (rest.empty() || parsing::is_blank(rest.front())) {
    offset = 0;
    return true;
  }
  int64_t id = 0;
  if (!parsing::read_digits(rest, id)) return false;
  if (static_cast<uint64_t>(id) >= layout.index_by_cpu_id.size()) return false;
  const int32_t index = layout.index_by_cpu_id[static_cast<size_t>(id)];
  if (index < 0) return false;
  offset = (static_cast<size_t>(index) + 1) * kStatCpuModes;
  return true;
}

class StatSource final : public Source {
 public:
  StatSource(FileReader reader, StatLayout layout, double seconds_per_tick)
      : reader_(std::move(reader)),
        layout_(std::move(layout)),
        seconds_per_tick_(seconds_per_tick) {}

  [[nodiscard]] std::string_view name() const noexcept override { return "stat"; }

  void describe(Schema& out) const override {
    const detail::SeriesInfo cpu{series_names::kCpuSecondsTotal, SeriesKind::counter, "seconds",
                                 seconds_per_tick_,
                                 "CPU time per CPU and mode (USER_HZ resolution); guest time is "
                                 "included in user and nice."};
    const detail::SeriesInfo guest{series_names::kCpuGuestSecondsTotal, SeriesKind::counter,
                                   "seconds", seconds_per_tick_,
                                   "CPU time per CPU spent running guests, already counted in "
                                   "cpu_seconds_total user and nice."};
    const detail::SeriesInfo all{series_names::kCpuAggregateSecondsTotal, SeriesKind::counter,
                                 "seconds", seconds_per_tick_,
                                 "CPU time summed over all CPUs per mode (the /proc/stat cpu "
                                 "line); guest time is included in user and nice."};
    const detail::SeriesInfo all_guest{series_names::kCpuAggregateGuestSecondsTotal,
                                       SeriesKind::counter, "seconds", seconds_per_tick_,
                                       "CPU time summed over all CPUs spent running guests."};
    for (size_t mode = 0; mode < kStatCpuModes; ++mode) {
      const auto& info = mode < kStatFirstGuestMode ? all : all_guest;
      out.push_back(detail::make_series(
          info, kSourcePath, {{std::string(kCpuModeLabel), std::string(kStatCpuModeNames[mode])}}));
    }
    for (const uint32_t id : layout_.cpu_ids) {
      for (size_t mode = 0; mode < kStatCpuModes; ++mode) {
        const auto& info = mode < kStatFirstGuestMode ? cpu : guest;
        out.push_back(detail::make_series(
            info, kSourcePath,
            {{std::string(kCpuLabel), std::to_string(id)},
             {std::string(kCpuModeLabel), std::string(kStatCpuModeNames[mode])}}));
      }
    }
    const std::array<detail::SeriesInfo, kStatScalars> scalars{{
        {"context_switches_total", SeriesKind::counter, "", 1.0, "Context switches (ctxt)."},
        {"interrupts_total", SeriesKind::counter, "", 1.0,
         "Interrupts serviced, all sources (intr)."},
        {"forks_total", SeriesKind::counter, "", 1.0, "Processes and threads created (processes)."},
        {"procs_running", SeriesKind::gauge, "", 1.0, "Threads runnable right now."},
        {"procs_blocked", SeriesKind::gauge, "", 1.0, "Threads blocked waiting for I/O."},
    }};
    for (const auto& info : scalars) out.push_back(detail::make_series(info, kSourcePath));
  }

  SampleStatus sample(std::span<int64_t> out) noexcept override {
    std::string_view text;
    if (!reader_.read(text)) {
      parsing::fill_absent(out);
      return SampleStatus::failed;
    }
    return parse_stat(text, layout_, out);
  }

  // intr and processes are not in the tick: the file is still read for them.
  [[nodiscard]] KernelTickShare kernel_tick_share() const noexcept override {
    return KernelTickShare::some;
  }

  void take_kernel_tick(const KernelTickBatch& batch, size_t tick,
                        std::span<int64_t> out) noexcept override {
    take_stat_kernel_tick(batch, tick, layout_, ns_per_tick_, out);
  }

 private:
  FileReader reader_;
  StatLayout layout_;
  double seconds_per_tick_;
  uint64_t ns_per_tick_ = static_cast<uint64_t>(std::llround(seconds_per_tick_ * 1e9));
};

// The scalars' places after the CPU runs (kScalarKeys' order).
constexpr size_t kCtxt = 0;
constexpr size_t kProcsRunning = 3;
constexpr size_t kProcsBlocked = 4;

int64_t as_count(uint64_t value) noexcept {
  return static_cast<int64_t>(std::min<uint64_t>(value, INT64_MAX));
}

}  // namespace

StatLayout parse_stat_layout(std::string_view text) {
  StatLayout layout;
  std::string_view line;
  while (parsing::next_line(text, line)) {
    if (!line.starts_with("cpu")) continue;
    std::string_view rest = line.substr(3);
    int64_t id = 0;
    if (!parsing::read_digits(rest, id) || id > kStatMaxCpuId) continue;
    const auto cpu = static_cast<size_t>(id);
    if (cpu >= layout.index_by_cpu_id.size()) layout.index_by_cpu_id.resize(cpu + 1, -1);
    if (layout.index_by_cpu_id[cpu] >= 0) continue;  // a repeated line keeps its first place
    layout.index_by_cpu_id[cpu] = static_cast<int32_t>(layout.cpu_ids.size());
    layout.cpu_ids.push_back(static_cast<uint32_t>(id));
  }
  return layout;
}

SampleStatus parse_stat(std::string_view text, const StatLayout& layout,
                        std::span<int64_t> out) noexcept {
  parsing::fill_absent(out);
  if (out.size() != stat_value_count(layout)) return SampleStatus::failed;
  const std::span<int64_t> scalars = out.last(kStatScalars);
  std::string_view line;
  while (parsing::next_line(text, line)) {
    if (line.starts_with("cpu")) {
      std::string_view rest = line.substr(3);
      size_t offset = 0;
      if (cpu_run_offset(rest, layout, offset))
        read_counts(rest, out.subspan(offset, kStatCpuModes));
      continue;
    }
    std::string_view rest = line;
    const std::string_view key = parsing::next_token(rest);
    for (size_t i = 0; i < kScalarKeys.size(); ++i) {
      if (key == kScalarKeys[i]) {
        read_count(rest, scalars[i]);  // leaves kAbsent when malformed
        break;
      }
    }
  }
  return parsing::status_of(out);
}

void take_stat_kernel_tick(const KernelTickBatch& batch, size_t tick, const StatLayout& layout,
                           uint64_t ns_per_tick, std::span<int64_t> out) noexcept {
  if (out.size() != stat_value_count(layout) || ns_per_tick == 0) return;
  const std::span<const KernelCpuTimes> cpus = batch.cpus_of(tick);
  std::array<uint64_t, kStatCpuModes> sums{};
  for (const KernelCpuTimes& cpu : cpus) {
    for (size_t mode = 0; mode < kStatCpuModes; ++mode) sums[mode] += cpu.ns[mode];
  }
  for (size_t mode = 0; mode < kStatCpuModes; ++mode)
    out[mode] = as_count(sums[mode] / ns_per_tick);
  for (size_t index = 0; index < layout.cpu_ids.size(); ++index) {
    const uint32_t id = layout.cpu_ids[index];
    const std::span<int64_t> run = out.subspan((index + 1) * kStatCpuModes, kStatCpuModes);
    if (id >= cpus.size()) continue;  // a CPU the tick does not have keeps its file values
    if (cpus[id].online == 0) {
      parsing::fill_absent(run);  // as /proc/stat, which omits an offline CPU's line
      continue;
    }
    for (size_t mode = 0; mode < kStatCpuModes; ++mode) {
      run[mode] = as_count(cpus[id].ns[mode] / ns_per_tick);
    }
  }
  const KernelTickHead& head = batch.heads[tick];
  const std::span<int64_t> scalars = out.last(kStatScalars);
  scalars[kCtxt] = as_count(head.context_switches);
  scalars[kProcsRunning] = as_count(head.running);
  scalars[kProcsBlocked] = as_count(head.blocked);
}

std::unique_ptr<Source> make_stat_source(const ProcRoot& root) {
  FileReader reader(root.proc("stat"), 4096, FileEnd::at_short_read);
  std::string_view text;
  if (!reader.read(text)) {
    throw std::runtime_error("cannot read " + reader.path().string());
  }
  StatLayout layout = parse_stat_layout(text);
  std::vector<int64_t> first(stat_value_count(layout));
  parse_stat(text, layout, first);
  if (first[0] == kAbsent) {
    throw std::runtime_error(reader.path().string() + ": no aggregate \"cpu\" line");
  }
  const long ticks_per_second = ::sysconf(_SC_CLK_TCK);
  if (ticks_per_second <= 0) throw std::runtime_error("sysconf(_SC_CLK_TCK) failed");
  return std::make_unique<StatSource>(std::move(reader), std::move(layout),
                                      1.0 / static_cast<double>(ticks_per_second));
}

}  // namespace flightrec::sampler
