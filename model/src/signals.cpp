#include "flightrec/model/signals.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <string_view>

#include "flightrec/sampler/sources/cgroup_cpu.h"
#include "flightrec/sampler/sources/diskstats.h"
#include "flightrec/sampler/sources/meminfo.h"
#include "flightrec/sampler/sources/netdev.h"
#include "flightrec/sampler/sources/pressure.h"
#include "flightrec/sampler/sources/stat.h"
#include "flightrec/sampler/sources/vmstat.h"

namespace flightrec::model {
namespace {

using sampler::kAbsent;
using sampler::Schema;
using sampler::SeriesDesc;
using Labels = std::vector<std::pair<std::string, std::string>>;
namespace series = sampler::series_names;
namespace names = signal_names;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

bool is_busy_mode(std::string_view mode) {
  const auto& idle = sampler::kStatIdleModes;
  return std::find(idle.begin(), idle.end(), mode) == idle.end();
}

std::string_view label(const SeriesDesc& s, std::string_view key) {
  for (const auto& [k, v] : s.labels) {
    if (k == key) return v;
  }
  return {};
}

long find(const Schema& schema, std::string_view name) {
  for (size_t i = 0; i < schema.size(); ++i) {
    if (schema[i].name == name) return static_cast<long>(i);
  }
  return -1;
}

// The busy modes of one /proc/stat CPU run (`cpu` empty: the aggregate line, which has no cpu
// label). Guest time has a family of its own and is already in user and nice.
std::vector<size_t> busy_inputs(const Schema& schema, std::string_view family,
                                std::string_view cpu) {
  std::vector<size_t> inputs;
  for (size_t i = 0; i < schema.size(); ++i) {
    if (schema[i].name == family && label(schema[i], sampler::kCpuLabel) == cpu &&
        is_busy_mode(label(schema[i], sampler::kCpuModeLabel))) {
      inputs.push_back(i);
    }
  }
  return inputs;
}

// A recording without a tick period still names its signals: their windows are then one tick.
size_t ticks_in(std::chrono::nanoseconds window, std::chrono::nanoseconds rate) {
  if (rate.count() <= 0) return 1;
  return std::max<size_t>(1, static_cast<size_t>((window + rate / 2) / rate));
}

Signal gauge(std::string_view name, std::string help, std::string unit, Labels labels,
             bool histogram) {
  Signal s;
  s.desc.name = name;
  s.desc.help = std::move(help);
  s.desc.unit = std::move(unit);
  s.desc.labels = std::move(labels);
  s.histogram = histogram;
  return s;
}

// Keyed signals take the key of the series they derive from: its device slot when live, its
// device label when the series comes from a recording (keys already resolved to names).
Signal keyed(Signal signal, const SeriesDesc& from) {
  signal.desc.keys = from.keys;
  signal.desc.key_slot = from.key_slot;
  signal.desc.key_label = from.key_label;
  signal.desc.source = from.source;
  if (from.keys == nullptr) signal.desc.labels = from.labels;
  return signal;
}

// The recording's series as the sampler describes them; keyed series carry their key as an
// ordinary label.
Schema schema_of(const recording::Metadata& metadata) {
  Schema schema;
  schema.reserve(metadata.series.size());
  for (const auto& series_info : metadata.series) {
    SeriesDesc desc;
    desc.name = series_info.name;
    desc.unit = series_info.unit;
    desc.kind = series_info.kind;
    desc.scale = series_info.scale;
    desc.labels = series_info.labels;
    desc.source = series_info.source;
    schema.push_back(std::move(desc));
  }
  return schema;
}

}  // namespace

int64_t SignalDeriver::WindowedRate::sum(std::span<const int64_t> values) const noexcept {
  int64_t total = 0;
  for (size_t i : inputs) {
    if (values[i] == kAbsent) return kAbsent;
    total += values[i];
  }
  return total;
}

double SignalDeriver::WindowedRate::rate(int64_t then_mono, int64_t then_sum, int64_t now_mono,
                                         int64_t now_sum) const noexcept {
  const int64_t dt = now_mono - then_mono;
  if (then_sum == kAbsent || now_sum == kAbsent || now_sum < then_sum || dt <= 0) return kNaN;
  return static_cast<double>(now_sum - then_sum) * scale / (static_cast<double>(dt) * 1e-9) /
         divisor;
}

double SignalDeriver::WindowedRate::push(int64_t mono_ns,
                                         std::span<const int64_t> values) noexcept {
  const int64_t now = sum(values);
  if (now == kAbsent) {
    filled = 0;
    return kNaN;
  }
  const size_t capacity = history_sum.size();
  if (filled > 0 && now < history_sum[(head + capacity - 1) % capacity]) filled = 0;  // reset
  history_mono[head] = mono_ns;
  history_sum[head] = now;
  head = (head + 1) % capacity;
  filled = std::min(filled + 1, capacity);
  if (filled < 2) return kNaN;
  const size_t back = std::min(filled - 1, window_ticks);
  const size_t old = (head + capacity - 1 - back) % capacity;
  return rate(history_mono[old], history_sum[old], mono_ns, now);
}

double SignalDeriver::Expression::eval(std::span<const int64_t> values) const noexcept {
  const int64_t va = values[a];
  const int64_t vb = b >= 0 ? values[static_cast<size_t>(b)] : 0;
  const int64_t vc = c >= 0 ? values[static_cast<size_t>(c)] : 1;
  if (va == kAbsent || vb == kAbsent || vc == kAbsent || vc == 0) return kNaN;
  return static_cast<double>(va - vb) * scale / static_cast<double>(vc);
}

void SignalDeriver::add_rate(Signal signal, WindowedRate rate) {
  rate.history_mono.assign(rate.window_ticks + 1, 0);
  rate.history_sum.assign(rate.window_ticks + 1, 0);
  slots_.push_back({true, rates_.size()});
  rates_.push_back(std::move(rate));
  signals_.push_back(std::move(signal));
}

void SignalDeriver::add_expression(Signal signal, Expression expression) {
  slots_.push_back({false, expressions_.size()});
  expressions_.push_back(expression);
  signals_.push_back(std::move(signal));
}

SignalDeriver::SignalDeriver(const recording::Metadata& metadata)
    : SignalDeriver(schema_of(metadata), std::chrono::nanoseconds(metadata.rate_ns)) {}

SignalDeriver::SignalDeriver(const Schema& schema, std::chrono::nanoseconds rate) {
  add_cpu_signals(schema, rate);
  add_memory_signals(schema);
  add_pressure_signals(schema);
  add_byte_rates(schema);
  add_event_rates(schema);
}

void SignalDeriver::add_cpu_signals(const Schema& schema, std::chrono::nanoseconds rate) {
  using std::chrono::milliseconds;
  const std::string help =
      "Share of time CPUs were busy (not idle or iowait), per tick over a trailing window "
      "(see docs/METRICS.md).";
  const auto ratio = [&](std::string_view cpu) {
    return gauge(names::kCpuBusyRatio, help, "ratio",
                 {{std::string(sampler::kCpuLabel), std::string(cpu)}}, true);
  };
  // The CPUs of /proc/stat; the all-CPU ratio divides by their count.
  std::vector<std::string> cpus;
  for (const auto& s : schema) {
    if (s.name == series::kCpuSecondsTotal && label(s, sampler::kCpuModeLabel) == "user") {
      cpus.emplace_back(label(s, sampler::kCpuLabel));
    }
  }
  const double cpu_count = static_cast<double>(std::max<size_t>(1, cpus.size()));
  const long cgroup_usage = find(schema, series::kCgroupCpuUsageSecondsTotal);
  if (cgroup_usage >= 0) {
    const auto usage = static_cast<size_t>(cgroup_usage);
    add_rate(ratio(names::kAllCpus), {.inputs = {usage},
                                      .scale = schema[usage].scale,
                                      .divisor = cpu_count,
                                      .window_ticks = ticks_in(milliseconds(20), rate)});
  } else if (auto inputs = busy_inputs(schema, series::kCpuAggregateSecondsTotal, "");
             !inputs.empty()) {
    const double scale = schema[inputs.front()].scale;
    add_rate(ratio(names::kAllCpus), {.inputs = std::move(inputs),
                                      .scale = scale,
                                      .divisor = cpu_count,
                                      .window_ticks = ticks_in(milliseconds(100), rate)});
  }
  for (const auto& cpu : cpus) {
    auto inputs = busy_inputs(schema, series::kCpuSecondsTotal, cpu);
    const double scale = schema[inputs.front()].scale;
    add_rate(ratio(cpu), {.inputs = std::move(inputs),
                          .scale = scale,
                          .window_ticks = ticks_in(milliseconds(100), rate)});
  }
}

void SignalDeriver::add_memory_signals(const Schema& schema) {
  const long total = find(schema, series::kMemoryTotalBytes);
  const long available = find(schema, series::kMemoryAvailableBytes);
  if (total < 0 || available < 0) return;
  const auto t = static_cast<size_t>(total);
  add_expression(gauge(names::kMemoryUsedBytes, "MemTotal - MemAvailable.", "bytes", {}, false),
                 {.a = t, .b = available, .scale = schema[t].scale});
  add_expression(
      gauge(names::kMemoryUsedRatio, "(MemTotal - MemAvailable) / MemTotal.", "ratio", {}, true),
      {.a = t, .b = available, .c = total});
}

void SignalDeriver::add_pressure_signals(const Schema& schema) {
  const std::pair<std::string_view, std::string_view> kinds[] = {
      {series::kPressureSomeSecondsTotal, "some"}, {series::kPressureFullSecondsTotal, "full"}};
  for (const auto& [family, kind] : kinds) {
    for (size_t i = 0; i < schema.size(); ++i) {
      if (schema[i].name != family) continue;
      const std::string resource(label(schema[i], sampler::kPressureResourceLabel));
      add_rate(gauge(names::kPressureStallRatio,
                     "Share of time tasks stalled on the resource (PSI), per tick.", "ratio",
                     {{std::string(sampler::kPressureResourceLabel), resource},
                      {"kind", std::string(kind)}},
                     true),
               {.inputs = {i}, .scale = schema[i].scale, .window_ticks = 1});
    }
  }
}

void SignalDeriver::add_byte_rates(const Schema& schema) {
  const std::pair<std::string_view, std::string_view> byte_rates[] = {
      {series::kDiskReadBytesTotal, names::kDiskReadBytesPerSecond},
      {series::kDiskWrittenBytesTotal, names::kDiskWrittenBytesPerSecond},
      {series::kNetworkReceiveBytesTotal, names::kNetworkReceiveBytesPerSecond},
      {series::kNetworkTransmitBytesTotal, names::kNetworkTransmitBytesPerSecond},
  };
  for (const auto& [from, to] : byte_rates) {
    for (size_t i = 0; i < schema.size(); ++i) {
      if (schema[i].name != from) continue;
      add_rate(keyed(gauge(to, "Byte rate per tick.", "bytes", {}, false), schema[i]),
               {.inputs = {i}, .scale = schema[i].scale, .window_ticks = 1});
    }
  }
}

void SignalDeriver::add_event_rates(const Schema& schema) {
  if (const long kills = find(schema, series::kOomKillsTotal); kills >= 0) {
    const auto i = static_cast<size_t>(kills);
    add_rate(gauge(names::kOomKillsPerSecond, "OOM kills per second, per tick.", "", {}, false),
             {.inputs = {i}, .scale = schema[i].scale, .window_ticks = 1});
  }
}

size_t SignalDeriver::window_ticks(size_t signal) const noexcept {
  const Slot slot = slots_[signal];
  return slot.windowed ? rates_[slot.index].window_ticks : 0;
}

double SignalDeriver::clamped(size_t signal, double value) const noexcept {
  // Ratios past 1 only come from coarse counters landing a step early: not information.
  if (signals_[signal].histogram && !std::isnan(value)) return std::clamp(value, 0.0, 1.0);
  return value;
}

void SignalDeriver::derive(const sampler::FrameHeader& header, std::span<const int64_t> values,
                           std::span<double> out) noexcept {
  for (size_t i = 0; i < slots_.size(); ++i) {
    const Slot slot = slots_[i];
    out[i] = clamped(i, slot.windowed ? rates_[slot.index].push(header.mono_ns, values)
                                      : expressions_[slot.index].eval(values));
  }
}

double SignalDeriver::between(size_t signal, const FrameView& then,
                              const FrameView& now) const noexcept {
  const Slot slot = slots_[signal];
  if (!slot.windowed) return clamped(signal, expressions_[slot.index].eval(now.values));
  const WindowedRate& r = rates_[slot.index];
  return clamped(signal, r.rate(then.mono_ns, r.sum(then.values), now.mono_ns, r.sum(now.values)));
}

}  // namespace flightrec::model
