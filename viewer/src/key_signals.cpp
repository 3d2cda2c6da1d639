#include "flightrec/viewer/key_signals.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string_view>

#include "flightrec/model/signals.h"
#include "flightrec/sampler/sources/stat.h"

namespace flightrec::viewer {
namespace {

// Frames before the range fed to the derivation so the first points already have a full trailing
// window (the longest is 100 ms, model/signals.h).
constexpr int64_t kWarmUpNs = 200'000'000;

// Where a derived signal is drawn.
struct Placement {
  size_t signal;
  size_t chart;
  size_t line;
};

// One per chart, in page order.
struct ChartSpec {
  std::string_view id;
  std::string_view title;
  std::string_view unit;
  bool drop_idle_lines;
};
constexpr ChartSpec kCharts[] = {
    {"cpu", "CPU busy", "ratio", false},
    {"memory", "Memory used", "bytes", false},
    {"pressure", "Pressure stall (PSI)", "ratio", false},
    {"disk", "Disk", "bytes/s", true},
    {"network", "Network", "bytes/s", true},
};
enum ChartIndex : size_t { kCpu, kMemory, kPressure, kDisk, kNetwork };

namespace names = model::signal_names;

// A byte-rate signal per device: its chart and its line suffix.
struct DeviceRate {
  std::string_view signal;
  size_t chart;
  std::string_view suffix;
};
constexpr DeviceRate kDeviceRates[] = {
    {names::kDiskReadBytesPerSecond, kDisk, "read"},
    {names::kDiskWrittenBytesPerSecond, kDisk, "write"},
    {names::kNetworkReceiveBytesPerSecond, kNetwork, "rx"},
    {names::kNetworkTransmitBytesPerSecond, kNetwork, "tx"},
};

// Decides which derived signal goes to which chart line, and names the lines.
std::vector<Placement> place_signals(const std::vector<model::Signal>& signals,
                                     std::vector<Chart>& charts) {
  std::vector<Placement> placements;
  const auto place = [&](size_t signal, size_t chart, std::string label) {
    placements.push_back({signal, chart, charts[chart].lines.size()});
    charts[chart].lines.push_back({std::move(label), {}});
  };
  for (size_t i = 0; i < signals.size(); ++i) {
    const auto& desc = signals[i].desc;
    if (desc.name == names::kCpuBusyRatio) {
      const auto cpu = recording::value_of(desc.labels, sampler::kCpuLabel);
      place(i, kCpu, cpu == names::kAllCpus ? std::string(cpu) : "cpu " + std::string(cpu));
    } else if (desc.name == names::kMemoryUsedBytes) {
      place(i, kMemory, "used");
    } else if (desc.name == names::kPressureStallRatio) {
      place(i, kPressure,
            std::string(recording::value_of(desc.labels, "resource")) + " " +
                std::string(recording::value_of(desc.labels, "kind")));
    }
    for (const auto& rate : kDeviceRates) {
      if (desc.name != rate.signal) continue;
      // Derived from a recording, a device's signal carries its device label (the last one).
      const std::string key = desc.labels.empty() ? "" : desc.labels.back().second;
      place(i, rate.chart, key + " " + std::string(rate.suffix));
    }
  }
  return placements;
}

uint64_t frames_in(std::span<const std::shared_ptr<const store::Block>> blocks,
                   store::TimeRange range) {
  uint64_t count = 0;
  std::vector<uint64_t> ticks;
  for (const auto& block : blocks) {
    const int64_t first = block->real_ns(block->first_tick());
    const int64_t last = block->real_ns(block->last_tick());
    if (last < range.from_real_ns || first > range.to_real_ns) continue;
    if (range.contains(first) && range.contains(last)) {
      count += block->frames();
      continue;
    }
    block->decode_ticks(ticks);
    for (const auto tick : ticks) count += range.contains(block->real_ns(tick)) ? 1u : 0u;
  }
  return count;
}

// Replays the recording through a fresh deriver and calls `on_tick(real_ns, derived)` for each
// frame inside `range`. Derivation starts kWarmUpNs earlier so the first ticks have their trailing
// window.
template <typename OnTick>
void derive_range(const recording::Metadata& metadata,
                  std::span<const std::shared_ptr<const store::Block>> blocks,
                  store::TimeRange range, OnTick on_tick) {
  model::SignalDeriver deriver(metadata);
  store::TimeRange fed = range;
  fed.from_real_ns = range.from_real_ns < std::numeric_limits<int64_t>::min() + kWarmUpNs
                         ? range.from_real_ns
                         : range.from_real_ns - kWarmUpNs;
  store::Cursor cursor(
      std::vector<std::shared_ptr<const store::Block>>(blocks.begin(), blocks.end()), fed);
  std::vector<int64_t> values(metadata.series.size());
  std::vector<double> derived(deriver.signals().size());
  while (cursor.next()) {
    cursor.values(values);
    deriver.derive({cursor.tick(), cursor.mono_ns(), cursor.real_ns()}, values, derived);
    if (range.contains(cursor.real_ns()))
      on_tick(cursor.real_ns(), std::span<const double>(derived));
  }
}

// Leaves out the disk and network lines that stay at zero (or unknown) through the range, keeping
// the first line of a chart whose lines are all idle. This is decided before the bucket size, so
// dropped lines do not take a share of the value budget.
void drop_idle_lines(const recording::Metadata& metadata,
                     std::span<const std::shared_ptr<const store::Block>> blocks,
                     store::TimeRange range, std::vector<Chart>& charts,
                     std::vector<Placement>& placements) {
  std::vector<bool> busy(placements.size(), false);
  derive_range(metadata, blocks, range, [&](int64_t, std::span<const double> derived) {
    for (size_t p = 0; p < placements.size(); ++p) {
      const double v = derived[placements[p].signal];
      if (!std::isnan(v) && v != 0.0) busy[p] = true;
    }
  });
  std::vector<bool> chart_has_busy(charts.size(), false);
  for (size_t p = 0; p < placements.size(); ++p) {
    if (busy[p]) chart_has_busy[placements[p].chart] = true;
  }
  // Placements are in line order within each chart, so renumbering as they are kept keeps it.
  std::vector<Placement> kept;
  std::vector<std::vector<Line>> kept_lines(charts.size());
  for (size_t p = 0; p < placements.size(); ++p) {
    const auto& at = placements[p];
    const bool keep = !kCharts[at.chart].drop_idle_lines || busy[p] ||
                      (!chart_has_busy[at.chart] && at.line == 0);
    if (!keep) continue;
    kept.push_back({at.signal, at.chart, kept_lines[at.chart].size()});
    kept_lines[at.chart].push_back(std::move(charts[at.chart].lines[at.line]));
  }
  for (size_t c = 0; c < charts.size(); ++c) charts[c].lines = std::move(kept_lines[c]);
  placements = std::move(kept);
}

}  // namespace

SignalWindow key_signals(const recording::Metadata& metadata,
                         std::span<const std::shared_ptr<const store::Block>> blocks,
                         store::TimeRange range, size_t max_values) {
  SignalWindow window;
  for (const auto& spec : kCharts) {
    window.charts.push_back(
        {std::string(spec.id), std::string(spec.title), std::string(spec.unit), {}});
  }
  if (metadata.rate_ns <= 0) return window;
  auto placements = place_signals(model::SignalDeriver(metadata).signals(), window.charts);
  drop_idle_lines(metadata, blocks, range, window.charts, placements);

  window.frames = frames_in(blocks, range);
  const uint64_t lines = std::max<size_t>(1, placements.size());
  const uint64_t points_per_line = std::max<uint64_t>(1, max_values / lines);
  window.bucket_ticks =
      std::max<uint64_t>(1, (window.frames + points_per_line - 1) / points_per_line);
  const size_t points =
      static_cast<size_t>((window.frames + window.bucket_ticks - 1) / window.bucket_ticks);
  window.times_ns.reserve(points);
  for (auto& chart : window.charts) {
    for (auto& line : chart.lines) line.values.reserve(points);
  }

  uint64_t in_bucket = 0;
  derive_range(metadata, blocks, range, [&](int64_t real_ns, std::span<const double> derived) {
    const bool first_of_bucket = in_bucket == 0;
    if (first_of_bucket) window.times_ns.push_back(real_ns);
    for (const auto& at : placements) {
      auto& series = window.charts[at.chart].lines[at.line].values;
      const double v = derived[at.signal];
      if (first_of_bucket) {
        series.push_back(v);
      } else if (!std::isnan(v) && !(series.back() >= v)) {
        series.back() = v;  // the bucket's maximum; NaN only when every tick was
      }
    }
    in_bucket = (in_bucket + 1) % window.bucket_ticks;
  });

  std::erase_if(window.charts, [](const Chart& chart) { return chart.lines.empty(); });
  return window;
}

}  // namespace flightrec::viewer
