#pragma once
// The machine at the cursor, as htop's header shows it: per-CPU busy share, memory and swap,
// load, pressure and disk/network rates. The busy shares, memory used, pressure and byte rates are
// the model's signals (model/signals.h), the very values /metrics, the triggers and the viewer
// show: each rate covers the interval back from the cursor, and never less than its signal's own
// window (a CPU busy ratio of /proc/stat needs 100 ms of its 10 ms steps), so over a short
// interval replay shows what the recorder derived live at that instant. A counter that went
// backwards (a reset) gives no value, never a negative one.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "flightrec/model/signals.h"
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

// Which signal and which series the header shows; built once per recording.
class SystemSeries {
 public:
  explicit SystemSeries(const recording::Metadata& metadata);

  // `previous` is the sample the rates start from (Timeline::interval_start), if any.
  [[nodiscard]] SystemView view(const Samples& samples, size_t index,
                                std::optional<size_t> previous) const;
  // MemTotal at the sample, without deriving anything else.
  [[nodiscard]] std::optional<double> mem_total(const Samples& samples, size_t index) const;

 private:
  struct PressureSignals {
    std::string resource;
    std::optional<size_t> some, full;
  };
  model::SignalDeriver deriver_;
  // Indices into deriver_.signals().
  std::optional<size_t> cpu_total_, mem_used_;
  std::vector<std::pair<std::string, size_t>> cpus_;  // cpu label and its signal, in CPU order
  std::vector<PressureSignals> pressure_;
  std::vector<size_t> disk_read_, disk_write_, net_rx_, net_tx_;
  // Series read as they are.
  std::optional<uint32_t> mem_total_, swap_total_, swap_free_, load1_, load5_, load15_;
};

}  // namespace flightrec::replay
