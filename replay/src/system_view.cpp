#include "flightrec/replay/system_view.h"

#include <algorithm>
#include <charconv>

namespace flightrec::replay {
namespace {

std::string label(const recording::SeriesInfo& series, std::string_view name) {
  for (const auto& [key, value] : series.labels) {
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

// The sum of the series' increases between two samples; nothing when a value is missing or went
// backwards. With `skip_absent`, series absent at either end (a device not bound yet, one that
// went away) are left out of the sum instead, and only a sum of none is nothing.
std::optional<double> increase(const Samples& samples, const std::vector<uint32_t>& series,
                               size_t from, size_t to, bool skip_absent = false) {
  double sum = 0;
  bool any = false;
  for (const uint32_t s : series) {
    const auto before = samples.value(from, s);
    const auto now = samples.value(to, s);
    if (!before || !now) {
      if (skip_absent) continue;
      return std::nullopt;
    }
    if (*now < *before) return std::nullopt;
    sum += *now - *before;
    any = true;
  }
  if (!any) return std::nullopt;
  return sum;
}

std::optional<double> at(const Samples& samples, std::optional<uint32_t> series, size_t index) {
  if (!series) return std::nullopt;
  return samples.value(index, *series);
}

std::optional<double> difference(std::optional<double> a, std::optional<double> b) {
  if (!a || !b) return std::nullopt;
  return *a - *b;
}

}  // namespace

SystemSeries::SystemSeries(const std::vector<recording::SeriesInfo>& series) {
  for (uint32_t i = 0; i < series.size(); ++i) {
    const auto& info = series[i];
    const std::string& name = info.name;
    if (name == "cpu_seconds_total") {
      const std::string cpu = label(info, "cpu");
      const std::string mode = label(info, "mode");
      auto found = std::find_if(cpus_.begin(), cpus_.end(),
                                [&](const CpuSeries& c) { return c.cpu == cpu; });
      if (found == cpus_.end()) found = cpus_.insert(cpus_.end(), CpuSeries{cpu, {}, {}});
      (mode == "idle" || mode == "iowait" ? found->idle : found->busy).push_back(i);
    } else if (name == "memory_total_bytes") {
      mem_total_ = i;
    } else if (name == "memory_available_bytes") {
      mem_available_ = i;
    } else if (name == "memory_swap_total_bytes") {
      swap_total_ = i;
    } else if (name == "memory_swap_free_bytes") {
      swap_free_ = i;
    } else if (name == "load1") {
      load1_ = i;
    } else if (name == "load5") {
      load5_ = i;
    } else if (name == "load15") {
      load15_ = i;
    } else if (name == "pressure_some_seconds_total" || name == "pressure_full_seconds_total") {
      const std::string resource = label(info, "resource");
      auto found = std::find_if(pressure_.begin(), pressure_.end(),
                                [&](const PressureSeries& p) { return p.resource == resource; });
      if (found == pressure_.end()) found = pressure_.insert(pressure_.end(), {resource, {}, {}});
      (name == "pressure_some_seconds_total" ? found->some : found->full) = i;
    } else if (name == "disk_read_bytes_total") {
      disk_read_.push_back(i);
    } else if (name == "disk_written_bytes_total") {
      disk_write_.push_back(i);
    } else if (label(info, "device") != "lo" && name == "network_receive_bytes_total") {
      net_rx_.push_back(i);
    } else if (label(info, "device") != "lo" && name == "network_transmit_bytes_total") {
      net_tx_.push_back(i);
    }
  }
  std::sort(cpus_.begin(), cpus_.end(),
            [](const CpuSeries& a, const CpuSeries& b) { return cpu_before(a.cpu, b.cpu); });
}

SystemView SystemSeries::view(const Samples& samples, size_t index,
                              std::optional<size_t> previous) const {
  SystemView view;
  if (index >= samples.size()) return view;
  view.time_ns = samples.times()[index];
  view.mem_total_bytes = at(samples, mem_total_, index);
  view.mem_used_bytes = difference(view.mem_total_bytes, at(samples, mem_available_, index));
  view.swap_total_bytes = at(samples, swap_total_, index);
  view.swap_used_bytes = difference(view.swap_total_bytes, at(samples, swap_free_, index));
  view.load1 = at(samples, load1_, index);
  view.load5 = at(samples, load5_, index);
  view.load15 = at(samples, load15_, index);

  std::optional<double> seconds;
  if (previous && *previous < index) {
    view.interval_ns = view.time_ns - samples.times()[*previous];
    if (view.interval_ns > 0) seconds = static_cast<double>(view.interval_ns) / 1e9;
  }
  const auto rate = [&](const std::vector<uint32_t>& series) -> std::optional<double> {
    if (!seconds) return std::nullopt;
    const auto delta = increase(samples, series, *previous, index, true);
    if (!delta) return std::nullopt;
    return *delta / *seconds;
  };
  const auto share = [](std::optional<double> busy,
                        std::optional<double> idle) -> std::optional<double> {
    if (!busy || !idle || *busy + *idle <= 0) return std::nullopt;
    return *busy / (*busy + *idle);
  };

  double all_busy = 0;
  double all_idle = 0;
  bool all_known = !cpus_.empty() && seconds.has_value();
  for (const auto& cpu : cpus_) {
    std::optional<double> busy;
    std::optional<double> idle;
    if (seconds) {
      busy = increase(samples, cpu.busy, *previous, index);
      idle = increase(samples, cpu.idle, *previous, index);
    }
    view.cpus.push_back({cpu.cpu, share(busy, idle)});
    if (busy && idle) {
      all_busy += *busy;
      all_idle += *idle;
    } else {
      all_known = false;
    }
  }
  if (all_known) view.cpu_total = share(all_busy, all_idle);

  for (const auto& p : pressure_) {
    const auto stalled = [&](std::optional<uint32_t> series) -> std::optional<double> {
      if (!series) return std::nullopt;
      const auto per_second = rate({*series});
      if (!per_second) return std::nullopt;
      return std::min(*per_second, 1.0);
    };
    view.pressure.push_back({p.resource, stalled(p.some), stalled(p.full)});
  }
  view.disk_read_bps = rate(disk_read_);
  view.disk_write_bps = rate(disk_write_);
  view.net_rx_bps = rate(net_rx_);
  view.net_tx_bps = rate(net_tx_);
  return view;
}

}  // namespace flightrec::replay
