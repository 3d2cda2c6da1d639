#pragma once
// The machine at the cursor, as htop's header shows it: per-CPU busy share, memory and swap,
// load, pressure and disk/network rates. Rates compare the cursor's sample with the one an
// interval earlier; a counter that went backwards (a reset) gives no value, never a negative one.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "flightrec/recording/metadata.h"
#include "flightrec/replay/samples.h"

namespace flightrec::replay {

struct CpuBusy {
  std::string cpu;              // the cpu label: "0", "1", ...
  std::optional<double> ratio;  // busy share 0..1 over the interval
};

struct Pressure {
  std::string resource;        // cpu, memory, io
  std::optional<double> some;  // share of the interval some task stalled, 0..1
  std::optional<double> full;
};

struct SystemView {
  int64_t time_ns = 0;
  int64_t interval_ns = 0;  // what the rates cover; 0 when there is no earlier sample
  std::vector<CpuBusy> cpus;
  std::optional<double> cpu_total;                        // all CPUs together, 0..1
  std::optional<double> mem_total_bytes, mem_used_bytes;  // used = MemTotal - MemAvailable
  std::optional<double> swap_total_bytes, swap_used_bytes;
  std::optional<double> load1, load5, load15;
  std::vector<Pressure> pressure;
  std::optional<double> disk_read_bps, disk_write_bps;  // all devices
  std::optional<double> net_rx_bps, net_tx_bps;         // all interfaces but lo
};

// Where each series the header needs lives in a frame; built once per recording.
class SystemSeries {
 public:
  explicit SystemSeries(const std::vector<recording::SeriesInfo>& series);

  // `previous` is the sample the rates start from (Timeline::interval_start), if any.
  [[nodiscard]] SystemView view(const Samples& samples, size_t index,
                                std::optional<size_t> previous) const;

 private:
  struct CpuSeries {
    std::string cpu;
    std::vector<uint32_t> busy;  // user nice system irq softirq steal
    std::vector<uint32_t> idle;  // idle iowait
  };
  struct PressureSeries {
    std::string resource;
    std::optional<uint32_t> some, full;
  };
  std::vector<CpuSeries> cpus_;
  std::optional<uint32_t> mem_total_, mem_available_, swap_total_, swap_free_;
  std::optional<uint32_t> load1_, load5_, load15_;
  std::vector<PressureSeries> pressure_;
  std::vector<uint32_t> disk_read_, disk_write_, net_rx_, net_tx_;
};

}  // namespace flightrec::replay
