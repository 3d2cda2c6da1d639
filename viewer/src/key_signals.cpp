#include "flightrec/viewer/key_signals.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <string_view>

#include "flightrec/recorder/signals.h"

namespace flightrec::viewer {
namespace {

// Frames before the range fed to the derivation so the first points already have a full trailing
// window (the longest is 100 ms, recorder/signals.h).
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

// A byte-rate signal per device: the family it derives from, its chart and its line suffix.
struct DeviceRate {
  std::string_view signal;
  std::string_view input;
  size_t chart;
  std::string_view suffix;
};
constexpr DeviceRate kDeviceRates[] = {
    {"disk_read_bytes_per_second", "disk_read_bytes_total", kDisk, "read"},
    {"disk_written_bytes_per_second", "disk_written_bytes_total", kDisk, "write"},
    {"network_receive_bytes_per_second", "network_receive_bytes_total", kNetwork, "rx"},
    {"network_transmit_bytes_per_second", "network_transmit_bytes_total", kNetwork, "tx"},
};

std::string_view label_value(const recording::Labels& labels, std::string_view key) {
  for (const auto& [k, v] : labels) {
    if (k == key) return v;
  }
  return {};
}

// The recording's schema as the sampler describes series. Keyed series already carry their key
// (device, interface) as an ordinary label.
sampler::Schema schema_of(const recording::Metadata& metadata) {
  sampler::Schema schema;
  schema.reserve(metadata.series.size());
  for (const auto& series : metadata.series) {
    sampler::SeriesDesc desc;
    desc.name = series.name;
    desc.unit = series.unit;
    desc.kind = series.kind;
    desc.scale = series.scale;
    desc.labels = series.labels;
    desc.source = series.source;
    schema.push_back(std::move(desc));
  }
  return schema;
}

// The key (last label value) of each series of `family`, in schema order.
std::vector<std::string> keys_of(const recording::Metadata& metadata, std::string_view family) {
  std::vector<std::string> keys;
  for (const auto& series : metadata.series) {
    if (series.name == family)
      keys.push_back(series.labels.empty() ? "" : series.labels.back().second);
  }
  return keys;
}

// Decides which derived signal goes to which chart line, and names the lines.
std::vector<Placement> place_signals(const std::vector<recorder::Signal>& signals,
                                     const recording::Metadata& metadata,
                                     std::vector<Chart>& charts) {
  std::vector<Placement> placements;
  const auto place = [&](size_t signal, size_t chart, std::string label) {
    placements.push_back({signal, chart, charts[chart].lines.size()});
    charts[chart].lines.push_back({std::move(label), {}});
  };
  // The recorder derives one rate per device in the schema's order of the input family; the
  // device name is only in the input series' labels.
  std::map<std::string_view, std::pair<std::vector<std::string>, size_t>> device_keys;
  for (const auto& rate : kDeviceRates)
    device_keys[rate.signal] = {keys_of(metadata, rate.input), 0};

  for (size_t i = 0; i < signals.size(); ++i) {
    const auto& desc = signals[i].desc;
    if (desc.name == "cpu_busy_ratio") {
      const auto cpu = label_value(desc.labels, "cpu");
      place(i, kCpu, cpu == "total" ? "total" : "cpu " + std::string(cpu));
    } else if (desc.name == "memory_used_bytes") {
      place(i, kMemory, "used");
    } else if (desc.name == "pressure_stall_ratio") {
      place(i, kPressure,
            std::string(label_value(desc.labels, "resource")) + " " +
                std::string(label_value(desc.labels, "kind")));
    }
    for (const auto& rate : kDeviceRates) {
      if (desc.name != rate.signal) continue;
      auto& [keys, next] = device_keys[rate.signal];
      const std::string key = next < keys.size() ? keys[next] : "#" + std::to_string(next);
      ++next;
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
  recorder::SignalDeriver deriver(schema_of(metadata), std::chrono::nanoseconds(metadata.rate_ns));
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
  auto placements = place_signals(
      recorder::SignalDeriver(schema_of(metadata), std::chrono::nanoseconds(metadata.rate_ns))
          .signals(),
      metadata, window.charts);
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
