// top(1)'s summary lines (uptime and load, %Cpu(s), MiB Mem, MiB Swap) from the system sources'
// series, found by name, so they follow the schema rather than parse /proc a second time.
#include <algorithm>
#include <array>

#include "flightrec/app/top.h"
#include "flightrec/common/printf_string.h"
#include "flightrec/sampler/sources/loadavg.h"
#include "flightrec/sampler/sources/meminfo.h"
#include "flightrec/sampler/sources/stat.h"

namespace flightrec::app {
namespace {

// The values of one sample by series name (and the one label some series carry).
class Reading {
 public:
  Reading(const sampler::Schema& schema, std::span<const int64_t> values)
      : schema_(schema), values_(values) {}

  // The base-unit value of series `name` (whose `label` is `label_value`, when given); null when
  // the schema has no such series or the sample could not read it.
  [[nodiscard]] std::optional<double> value(std::string_view name, std::string_view label = {},
                                            std::string_view label_value = {}) const {
    if (values_.size() != schema_.size()) return std::nullopt;
    for (size_t i = 0; i < schema_.size(); ++i) {
      const sampler::SeriesDesc& series = schema_[i];
      if (series.name != name || values_[i] == sampler::kAbsent) continue;
      if (!label.empty() &&
          std::none_of(series.labels.begin(), series.labels.end(), [&](const auto& pair) {
            return pair.first == label && pair.second == label_value;
          })) {
        continue;
      }
      return static_cast<double>(values_[i]) * series.scale;
    }
    return std::nullopt;
  }

 private:
  const sampler::Schema& schema_;
  std::span<const int64_t> values_;
};

// top's "up 3 days,  2:05" / "up 17 min".
std::string uptime_text(int64_t seconds) {
  const int64_t days = seconds / 86'400;
  const int64_t hours = seconds / 3'600 % 24;
  const int64_t minutes = seconds / 60 % 60;
  std::string out = "up ";
  if (days > 0)
    out += printf_string("%lld day%s, ", static_cast<long long>(days), days == 1 ? "" : "s");
  if (hours > 0)
    return out + printf_string("%2lld:%02lld", static_cast<long long>(hours),
                               static_cast<long long>(minutes));
  return out + printf_string("%lld min", static_cast<long long>(minutes));
}

// "%Cpu(s):" as top splits it: each mode's share of the CPU time that passed over the interval.
std::string cpu_line(const Reading& before, const Reading& now) {
  static constexpr std::array<std::pair<std::string_view, const char*>, 8> kModes{
      {{"user", "us"},
       {"system", "sy"},
       {"nice", "ni"},
       {"idle", "id"},
       {"iowait", "wa"},
       {"irq", "hi"},
       {"softirq", "si"},
       {"steal", "st"}}};
  std::array<double, kModes.size()> moved{};
  double total = 0;
  for (size_t i = 0; i < kModes.size(); ++i) {
    const auto name = sampler::series_names::kCpuAggregateSecondsTotal;
    const auto label = sampler::kCpuModeLabel;
    const auto then = before.value(name, label, kModes[i].first);
    const auto current = now.value(name, label, kModes[i].first);
    if (!then || !current) return "";
    moved[i] = std::max(0.0, *current - *then);  // a counter that went back moved nothing
    total += moved[i];
  }
  if (total <= 0) return "";
  std::string out = "%Cpu(s):";
  for (size_t i = 0; i < kModes.size(); ++i) {
    out += printf_string("%s%5.1f %s", i == 0 ? "" : ",", moved[i] * 100 / total, kModes[i].second);
  }
  return out + "\n";
}

constexpr double kMiB = 1024.0 * 1024.0;

// "MiB Mem :" and "MiB Swap:" as top computes them: buff/cache is Buffers + Cached + SReclaimable,
// used what is neither free nor that.
std::string memory_lines(const Reading& now) {
  namespace names = sampler::series_names;
  const auto total = now.value(names::kMemoryTotalBytes);
  const auto free = now.value("memory_free_bytes");
  const auto buffers = now.value("memory_buffers_bytes");
  const auto cached = now.value("memory_cached_bytes");
  const auto reclaimable = now.value("memory_slab_reclaimable_bytes");
  const auto available = now.value(names::kMemoryAvailableBytes);
  const auto swap_total = now.value(names::kMemorySwapTotalBytes);
  const auto swap_free = now.value(names::kMemorySwapFreeBytes);
  if (!total || !free || !buffers || !cached) return "";
  const double buff_cache = *buffers + *cached + reclaimable.value_or(0);
  const double used = std::max(0.0, *total - *free - buff_cache);
  std::string out =
      printf_string("MiB Mem : %8.1f total, %8.1f free, %8.1f used, %8.1f buff/cache\n",
                    *total / kMiB, *free / kMiB, used / kMiB, buff_cache / kMiB);
  if (swap_total && swap_free) {
    out += printf_string("MiB Swap: %8.1f total, %8.1f free, %8.1f used.", *swap_total / kMiB,
                         *swap_free / kMiB, std::max(0.0, *swap_total - *swap_free) / kMiB);
    if (available) out += printf_string(" %8.1f avail Mem", *available / kMiB);
    out += "\n";
  }
  return out;
}

}  // namespace

TopSummary top_summary(const sampler::Schema& schema, std::span<const int64_t> before,
                       std::span<const int64_t> now, std::optional<int64_t> uptime_seconds) {
  const Reading then(schema, before);
  const Reading current(schema, now);
  TopSummary summary;
  if (uptime_seconds && *uptime_seconds >= 0)
    summary.uptime_and_load = uptime_text(*uptime_seconds);
  namespace names = sampler::series_names;
  const auto load1 = current.value(names::kLoad1);
  const auto load5 = current.value(names::kLoad5);
  const auto load15 = current.value(names::kLoad15);
  if (load1 && load5 && load15) {
    if (!summary.uptime_and_load.empty()) summary.uptime_and_load += ",  ";
    summary.uptime_and_load +=
        printf_string("load average: %.2f, %.2f, %.2f", *load1, *load5, *load15);
  }
  summary.lines = cpu_line(then, current) + memory_lines(current);
  return summary;
}

}  // namespace flightrec::app
