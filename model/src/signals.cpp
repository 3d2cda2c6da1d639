#include "flightrec/recorder/signals.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <string_view>

namespace flightrec::recorder {
namespace {

using sampler::kAbsent;
using sampler::Schema;
using sampler::SeriesDesc;
using Labels = std::vector<std::pair<std::string, std::string>>;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr std::string_view kBusyModes[] = {"user", "nice", "system", "irq", "softirq", "steal"};

bool has_label(const SeriesDesc& s, std::string_view key, std::string_view value) {
  for (const auto& [k, v] : s.labels) {
    if (k == key) return v == value;
  }
  return false;
}

std::string_view label(const SeriesDesc& s, std::string_view key) {
  for (const auto& [k, v] : s.labels) {
    if (k == key) return v;
  }
  return {};
}

long find(const Schema& schema, std::string_view name, const Labels& labels = {}) {
  for (size_t i = 0; i < schema.size(); ++i) {
    if (schema[i].name != name) continue;
    bool all = true;
    for (const auto& [k, v] : labels) all = all && has_label(schema[i], k, v);
    if (all) return static_cast<long>(i);
  }
  return -1;
}

// The busy modes of one /proc/stat CPU run (`cpu` empty: the aggregate line).
std::vector<size_t> busy_inputs(const Schema& schema, std::string_view family,
                                std::string_view cpu) {
  std::vector<size_t> inputs;
  for (std::string_view mode : kBusyModes) {
    Labels labels{{"mode", std::string(mode)}};
    if (!cpu.empty()) labels.emplace_back("cpu", std::string(cpu));
    const long i = find(schema, family, labels);
    if (i >= 0) inputs.push_back(static_cast<size_t>(i));
  }
  return inputs;
}

size_t ticks_in(std::chrono::nanoseconds window, std::chrono::nanoseconds rate) {
  return std::max<size_t>(1, static_cast<size_t>((window + rate / 2) / rate));
}

Signal gauge(std::string name, std::string help, std::string unit, Labels labels, bool histogram) {
  Signal s;
  s.desc.name = std::move(name);
  s.desc.help = std::move(help);
  s.desc.unit = std::move(unit);
  s.desc.labels = std::move(labels);
  s.histogram = histogram;
  return s;
}

// Keyed signals inherit the device slot of the series they derive from.
Signal keyed(Signal signal, const SeriesDesc& from) {
  signal.desc.keys = from.keys;
  signal.desc.key_slot = from.key_slot;
  signal.desc.key_label = from.key_label;
  signal.desc.source = from.source;
  return signal;
}

}  // namespace

double SignalDeriver::WindowedRate::push(int64_t mono_ns,
                                         std::span<const int64_t> values) noexcept {
  int64_t sum = 0;
  for (size_t i : inputs) {
    if (values[i] == kAbsent) {
      filled = 0;
      return kNaN;
    }
    sum += values[i];
  }
  const size_t capacity = history_sum.size();
  if (filled > 0 && sum < history_sum[(head + capacity - 1) % capacity]) filled = 0;  // reset
  history_mono[head] = mono_ns;
  history_sum[head] = sum;
  head = (head + 1) % capacity;
  filled = std::min(filled + 1, capacity);
  if (filled < 2) return kNaN;
  const size_t back = std::min(filled - 1, window_ticks);
  const size_t old = (head + capacity - 1 - back) % capacity;
  const int64_t dt = mono_ns - history_mono[old];
  if (dt <= 0) return kNaN;
  return static_cast<double>(sum - history_sum[old]) * scale / (static_cast<double>(dt) * 1e-9) /
         divisor;
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

SignalDeriver::SignalDeriver(const Schema& schema, std::chrono::nanoseconds rate) {
  using std::chrono::milliseconds;
  const std::string cpu_help =
      "Share of time CPUs were busy (not idle or iowait), per tick over a trailing window "
      "(see docs/METRICS.md).";

  // Per-CPU ratios from /proc/stat, and the CPU count the all-CPU ratio divides by.
  std::vector<std::string> cpus;
  for (const auto& s : schema) {
    if (s.name == "cpu_seconds_total" && has_label(s, "mode", "user")) {
      cpus.emplace_back(label(s, "cpu"));
    }
  }
  const double cpu_count = static_cast<double>(std::max<size_t>(1, cpus.size()));
  const long cgroup_usage = find(schema, "cgroup_cpu_usage_seconds_total");
  if (cgroup_usage >= 0) {
    add_rate(gauge("cpu_busy_ratio", cpu_help, "ratio", {{"cpu", "total"}}, true),
             {.inputs = {static_cast<size_t>(cgroup_usage)},
              .scale = schema[static_cast<size_t>(cgroup_usage)].scale,
              .divisor = cpu_count,
              .window_ticks = ticks_in(milliseconds(20), rate)});
  } else if (auto inputs = busy_inputs(schema, "cpu_aggregate_seconds_total", "");
             !inputs.empty()) {
    const double scale = schema[inputs.front()].scale;
    add_rate(gauge("cpu_busy_ratio", cpu_help, "ratio", {{"cpu", "total"}}, true),
             {.inputs = std::move(inputs),
              .scale = scale,
              .divisor = cpu_count,
              .window_ticks = ticks_in(milliseconds(100), rate)});
  }
  for (const auto& cpu : cpus) {
    auto inputs = busy_inputs(schema, "cpu_seconds_total", cpu);
    const double scale = schema[inputs.front()].scale;
    add_rate(gauge("cpu_busy_ratio", cpu_help, "ratio", {{"cpu", cpu}}, true),
             {.inputs = std::move(inputs),
              .scale = scale,
              .window_ticks = ticks_in(milliseconds(100), rate)});
  }

  const long total = find(schema, "memory_total_bytes");
  const long available = find(schema, "memory_available_bytes");
  if (total >= 0 && available >= 0) {
    const auto t = static_cast<size_t>(total);
    add_expression(gauge("memory_used_bytes", "MemTotal - MemAvailable.", "bytes", {}, false),
                   {.a = t, .b = available, .scale = schema[t].scale});
    add_expression(
        gauge("memory_used_ratio", "(MemTotal - MemAvailable) / MemTotal.", "ratio", {}, true),
        {.a = t, .b = available, .c = total});
  }

  for (const char* kind : {"some", "full"}) {
    const std::string family = std::string("pressure_") + kind + "_seconds_total";
    for (size_t i = 0; i < schema.size(); ++i) {
      if (schema[i].name != family) continue;
      add_rate(
          gauge("pressure_stall_ratio",
                "Share of time tasks stalled on the resource (PSI), per tick.", "ratio",
                {{"resource", std::string(label(schema[i], "resource"))}, {"kind", kind}}, true),
          {.inputs = {i}, .scale = schema[i].scale, .window_ticks = 1});
    }
  }

  const std::pair<const char*, const char*> byte_rates[] = {
      {"disk_read_bytes_total", "disk_read_bytes_per_second"},
      {"disk_written_bytes_total", "disk_written_bytes_per_second"},
      {"network_receive_bytes_total", "network_receive_bytes_per_second"},
      {"network_transmit_bytes_total", "network_transmit_bytes_per_second"},
  };
  for (const auto& [from, to] : byte_rates) {
    for (size_t i = 0; i < schema.size(); ++i) {
      if (schema[i].name != from) continue;
      add_rate(keyed(gauge(to, "Byte rate per tick.", "bytes", {}, false), schema[i]),
               {.inputs = {i}, .scale = schema[i].scale, .window_ticks = 1});
    }
  }
}

void SignalDeriver::derive(const sampler::FrameHeader& header, std::span<const int64_t> values,
                           std::span<double> out) noexcept {
  for (size_t i = 0; i < slots_.size(); ++i) {
    const Slot slot = slots_[i];
    double v = slot.windowed ? rates_[slot.index].push(header.mono_ns, values)
                             : expressions_[slot.index].eval(values);
    // Ratios past 1 only come from coarse counters landing a step early: not information.
    if (signals_[i].histogram && !std::isnan(v)) v = std::clamp(v, 0.0, 1.0);
    out[i] = v;
  }
}

}  // namespace flightrec::recorder
