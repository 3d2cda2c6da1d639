#pragma once
// Key signals derived per tick from the raw frames: CPU busy ratios, memory used, PSI stall
// ratios, disk and network byte rates. These feed the spike-preserving window aggregates and the
// per-tick histograms; the raw counters stay in the ring untouched (rates are derived on read).
//
// A counter that moves in coarse steps gives meaningless per-millisecond rates, so each rate is
// taken over a trailing window no shorter than a few of its source's steps:
//   cpu_busy_ratio{cpu="total"}  root cgroup cpu.stat usage (moves per kernel tick, 4 ms at HZ=250)
//                                over 20 ms; /proc/stat over 100 ms where there is no cgroup v2
//   cpu_busy_ratio{cpu="N"}      /proc/stat (USER_HZ, 10 ms steps) over 100 ms
//   pressure_stall_ratio         PSI totals (µs) over one tick
//   disk/network byte rates      exact counters over one tick
// A window never spans less than one tick. Unknown values (first frame, absent input, counter
// reset) are NaN.
#include <chrono>
#include <cstdint>
#include <span>
#include <vector>

#include "flightrec/sampler/frame.h"
#include "flightrec/sampler/series.h"

namespace flightrec::recorder {

struct Signal {
  sampler::SeriesDesc desc;  // gauge; name like "cpu_busy_ratio"; keyed for devices
  bool histogram = false;    // a per-tick histogram is kept (ratios in [0, 1])
};

class SignalDeriver {
 public:
  SignalDeriver(const sampler::Schema& schema, std::chrono::nanoseconds rate);

  [[nodiscard]] const std::vector<Signal>& signals() const noexcept { return signals_; }

  // One value per signal into `out` for this frame. Recorder thread only; never allocates.
  void derive(const sampler::FrameHeader& header, std::span<const int64_t> values,
              std::span<double> out) noexcept;

 private:
  // A rate of the sum of some counters over a trailing window of ticks.
  struct WindowedRate {
    std::vector<size_t> inputs;  // series indices summed
    double scale = 1.0;          // stored unit -> base unit
    double divisor = 1.0;        // e.g. the CPU count for an all-CPU ratio
    size_t window_ticks = 1;
    std::vector<int64_t> history_mono;  // ring of window_ticks + 1 entries
    std::vector<int64_t> history_sum;
    size_t filled = 0;
    size_t head = 0;
    [[nodiscard]] double push(int64_t mono_ns, std::span<const int64_t> values) noexcept;
  };
  // value = (a - b) * scale / (c or 1): gauges computed from one frame.
  struct Expression {
    size_t a;
    long b = -1;  // subtracted series, or none
    long c = -1;  // divisor series, or none
    double scale = 1.0;
    [[nodiscard]] double eval(std::span<const int64_t> values) const noexcept;
  };
  struct Slot {
    bool windowed;
    size_t index;  // into rates_ or expressions_
  };

  void add_rate(Signal signal, WindowedRate rate);
  void add_expression(Signal signal, Expression expression);

  std::vector<Signal> signals_;
  std::vector<Slot> slots_;
  std::vector<WindowedRate> rates_;
  std::vector<Expression> expressions_;
};

}  // namespace flightrec::recorder
