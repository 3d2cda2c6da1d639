#include "flightrec/replay/system_view.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "flightrec/sampler/sources/loadavg.h"
#include "flightrec/sampler/sources/meminfo.h"
#include "flightrec/sampler/sources/netdev.h"
#include "flightrec/sampler/sources/pressure.h"
#include "flightrec/sampler/sources/stat.h"

namespace flightrec::replay {
namespace {

namespace series = sampler::series_names;
namespace signal_names = model::signal_names;

std::string label(const sampler::SeriesDesc& desc, std::string_view name) {
  for (const auto& [key, value] : desc.labels) {
    if (key == name) return value;
  }
  return {};
}

// Numeric CPUs in numeric order ("2" before "10"), anything else after them.
bool cpu_before(const std::string& a, const std::string& b) {
  int na = 0;
  int nb = 0;
  const bool a_num = std::from_chars(a.data(), a.data() + a.size(), na).ec == std::errc{};
  const bool b_num = std::from_chars(b.data(), b.data() + b.size(), nb).ec == std::errc{};
  if (a_num != b_num) return a_num;
  if (a_num && na != nb) return na < nb;
  return a < b;
}

std::optional<double> known(double value) {
  if (std::isnan(value)) return std::nullopt;
  return value;
}

std::optional<double> at(const Samples& samples, std::optional<uint32_t> series, size_t index) {
  if (!series) return std::nullopt;
  return samples.value(index, *series);
}

std::optional<double> difference(std::optional<double> a, std::optional<double> b) {
  if (!a || !b) return std::nullopt;
  return *a - *b;
}

// The raw frames one view reads: the cursor's and the few its rates start from.
class Frames {
 public:
  explicit Frames(const Samples& samples) : samples_(samples) {}
  model::FrameView at(size_t index) {
    auto found = std::find_if(frames_.begin(), frames_.end(),
                              [&](const auto& frame) { return frame.first == index; });
    if (found == frames_.end()) {
      frames_.emplace_back(index, std::vector<int64_t>());
      found = frames_.end() - 1;
      samples_.raw(index, found->second);
    }
    return {samples_.mono_times()[index], found->second};
  }

 private:
  const Samples& samples_;
  std::vector<std::pair<size_t, std::vector<int64_t>>> frames_;
};

}  // namespace

SystemSeries::SystemSeries(const recording::Metadata& metadata) : deriver_(metadata) {
  const auto& signals = deriver_.signals();
  for (size_t i = 0; i < signals.size(); ++i) {
    const auto& desc = signals[i].desc;
    const std::string device = label(desc, "device");
    if (desc.name == signal_names::kCpuBusyRatio) {
      const std::string cpu = label(desc, sampler::kCpuLabel);
      if (cpu == signal_names::kAllCpus) {
        cpu_total_ = i;
      } else {
        cpus_.emplace_back(cpu, i);
      }
    } else if (desc.name == signal_names::kMemoryUsedBytes) {
      mem_used_ = i;
    } else if (desc.name == signal_names::kPressureStallRatio) {
      const std::string resource = label(desc, sampler::kPressureResourceLabel);
      auto found = std::find_if(pressure_.begin(), pressure_.end(),
                                [&](const PressureSignals& p) { return p.resource == resource; });
      if (found == pressure_.end()) found = pressure_.insert(pressure_.end(), {resource, {}, {}});
      (label(desc, "kind") == "some" ? found->some : found->full) = i;
    } else if (desc.name == signal_names::kDiskReadBytesPerSecond) {
      disk_read_.push_back(i);
    } else if (desc.name == signal_names::kDiskWrittenBytesPerSecond) {
      disk_write_.push_back(i);
    } else if (device != sampler::kLoopbackDevice &&
               desc.name == signal_names::kNetworkReceiveBytesPerSecond) {
      net_rx_.push_back(i);
    } else if (device != sampler::kLoopbackDevice &&
               desc.name == signal_names::kNetworkTransmitBytesPerSecond) {
      net_tx_.push_back(i);
    }
  }
  std::sort(cpus_.begin(), cpus_.end(),
            [](const auto& a, const auto& b) { return cpu_before(a.first, b.first); });

  const std::pair<std::string_view, std::optional<uint32_t>*> gauges[] = {
      {series::kMemoryTotalBytes, &mem_total_},
      {series::kMemorySwapTotalBytes, &swap_total_},
      {series::kMemorySwapFreeBytes, &swap_free_},
      {series::kLoad1, &load1_},
      {series::kLoad5, &load5_},
      {series::kLoad15, &load15_}};
  for (uint32_t i = 0; i < metadata.series.size(); ++i) {
    for (const auto& [name, slot] : gauges) {
      if (metadata.series[i].name == name && !*slot) *slot = i;
    }
  }
}

std::optional<double> SystemSeries::mem_total(const Samples& samples, size_t index) const {
  return at(samples, mem_total_, index);
}

SystemView SystemSeries::view(const Samples& samples, size_t index,
                              std::optional<size_t> previous) const {
  SystemView view;
  if (index >= samples.size()) return view;
  view.time_ns = samples.times()[index];
  view.mem_total_bytes = at(samples, mem_total_, index);
  view.swap_total_bytes = at(samples, swap_total_, index);
  view.swap_used_bytes = difference(view.swap_total_bytes, at(samples, swap_free_, index));
  view.load1 = at(samples, load1_, index);
  view.load5 = at(samples, load5_, index);
  view.load15 = at(samples, load15_, index);
  const bool has_interval = previous && *previous < index;
  if (has_interval) view.interval_ns = view.time_ns - samples.times()[*previous];

  Frames frames(samples);
  const model::FrameView now = frames.at(index);
  // A signal over the interval, stretched back to the signal's own window when that is longer.
  const auto signal = [&](size_t s) -> std::optional<double> {
    const size_t window = deriver_.window_ticks(s);
    if (window == 0) return known(deriver_.between(s, now, now));
    if (!has_interval) return std::nullopt;
    const size_t from = std::min(*previous, index >= window ? index - window : 0);
    return known(deriver_.between(s, frames.at(from), now));
  };
  // The sum over devices; those without a value (not bound yet, gone, reset) are left out.
  const auto total = [&](const std::vector<size_t>& signals) -> std::optional<double> {
    std::optional<double> sum;
    for (const size_t s : signals) {
      if (const auto value = signal(s)) sum = sum.value_or(0.0) + *value;
    }
    return sum;
  };

  if (mem_used_) view.mem_used_bytes = signal(*mem_used_);
  if (cpu_total_) view.cpu_total = signal(*cpu_total_);
  for (const auto& [cpu, s] : cpus_) view.cpus.push_back({cpu, signal(s)});
  for (const auto& p : pressure_) {
    view.pressure.push_back({p.resource, p.some ? signal(*p.some) : std::nullopt,
                             p.full ? signal(*p.full) : std::nullopt});
  }
  view.disk_read_bps = total(disk_read_);
  view.disk_write_bps = total(disk_write_);
  view.net_rx_bps = total(net_rx_);
  view.net_tx_bps = total(net_tx_);
  return view;
}

}  // namespace flightrec::replay
