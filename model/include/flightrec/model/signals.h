#pragma once
// The key signals derived from raw frames: CPU busy ratios, memory used, PSI stall ratios, disk
// and network byte rates. One definition each, used by every consumer: the recorder derives them
// per tick for /metrics' window statistics and the triggers; the viewer and replay derive them
// from a recording's stored frames. The raw counters stay untouched (rates are derived on read).
//
// A counter that moves in coarse steps gives meaningless per-millisecond rates, so each rate is
// taken over a trailing window no shorter than a few of its source's steps:
//   cpu_busy_ratio{cpu="total"}  root cgroup cpu.stat usage (moves per kernel tick, 4 ms at HZ=250)
//                                over 20 ms; /proc/stat over 100 ms where there is no cgroup v2
//   cpu_busy_ratio{cpu="N"}      /proc/stat (USER_HZ, 10 ms steps) over 100 ms
//   pressure_stall_ratio         PSI totals (µs) over one tick
//   disk/network byte rates      exact counters over one tick
//   oom_kills_per_second         /proc/vmstat oom_kill over one tick: non-zero on the tick a kill
//                                is first seen (the built-in oom_kill rule fires on it)
// A window never spans less than one tick. Unknown values (first frame, absent input, counter
// reset) are NaN. Ratios are clamped to [0, 1]: past 1 only comes from coarse counters landing a
// step early.
#include <array>
#include <chrono>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "flightrec/recording/metadata.h"
#include "flightrec/sampler/frame.h"
#include "flightrec/sampler/series.h"

namespace flightrec::model {

// The names of the derived signals (without the flightrec_ prefix), as /metrics, the trigger
// rules and the viewer call them.
namespace signal_names {
inline constexpr std::string_view kCpuBusyRatio = "cpu_busy_ratio";
inline constexpr std::string_view kMemoryUsedBytes = "memory_used_bytes";
inline constexpr std::string_view kMemoryUsedRatio = "memory_used_ratio";
inline constexpr std::string_view kPressureStallRatio = "pressure_stall_ratio";
inline constexpr std::string_view kDiskReadBytesPerSecond = "disk_read_bytes_per_second";
inline constexpr std::string_view kDiskWrittenBytesPerSecond = "disk_written_bytes_per_second";
inline constexpr std::string_view kNetworkReceiveBytesPerSecond =
    "network_receive_bytes_per_second";
inline constexpr std::string_view kNetworkTransmitBytesPerSecond =
    "network_transmit_bytes_per_second";
inline constexpr std::string_view kOomKillsPerSecond = "oom_kills_per_second";
// Every name above, whichever of them this host has: what a rule may name besides raw series.
inline constexpr std::array<std::string_view, 9> kAll = {kCpuBusyRatio,
                                                         kMemoryUsedBytes,
                                                         kMemoryUsedRatio,
                                                         kPressureStallRatio,
                                                         kDiskReadBytesPerSecond,
                                                         kDiskWrittenBytesPerSecond,
                                                         kNetworkReceiveBytesPerSecond,
                                                         kNetworkTransmitBytesPerSecond,
                                                         kOomKillsPerSecond};
// cpu_busy_ratio's label value for all CPUs together.
inline constexpr std::string_view kAllCpus = "total";
}  // namespace signal_names

struct Signal {
  // A gauge named as in signal_names. Keyed signals (per disk, per interface) carry the key of
  // the series they derive from: its slot when derived live, its label when from a recording.
  sampler::SeriesDesc desc;
  bool histogram = false;  // a ratio in [0, 1]: the recorder keeps a per-tick histogram of it
};

// One frame as the deriver reads it: raw stored values, kAbsent where a source could not read.
struct FrameView {
  int64_t mono_ns = 0;
  std::span<const int64_t> values;
};

class SignalDeriver {
 public:
  // Live: the sampler's schema and tick period.
  SignalDeriver(const sampler::Schema& schema, std::chrono::nanoseconds rate);
  // Over stored frames: what a recording says about its series and its tick period.
  explicit SignalDeriver(const recording::Metadata& metadata);

  [[nodiscard]] const std::vector<Signal>& signals() const noexcept { return signals_; }

  // The ticks a signal's trailing window reaches back; 0 for a gauge read from one frame.
  [[nodiscard]] size_t window_ticks(size_t signal) const noexcept;

  // Frame by frame, in order: one value per signal into `out`, each rate over its trailing window
  // of the frames fed so far. Recorder thread only; never allocates.
  void derive(const sampler::FrameHeader& header, std::span<const int64_t> values,
              std::span<double> out) noexcept;

  // One signal from two frames, for a reader with random access to stored frames: a rate over
  // [then, now], a gauge at `now`. Over the frames `derive` would use, it gives the same value.
  [[nodiscard]] double between(size_t signal, const FrameView& then,
                               const FrameView& now) const noexcept;

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
    // The inputs' sum in a frame; kAbsent when one of them is.
    [[nodiscard]] int64_t sum(std::span<const int64_t> values) const noexcept;
    [[nodiscard]] double rate(int64_t then_mono, int64_t then_sum, int64_t now_mono,
                              int64_t now_sum) const noexcept;
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

  void add_cpu_signals(const sampler::Schema& schema, std::chrono::nanoseconds rate);
  void add_memory_signals(const sampler::Schema& schema);
  void add_pressure_signals(const sampler::Schema& schema);
  void add_byte_rates(const sampler::Schema& schema);
  void add_event_rates(const sampler::Schema& schema);
  void add_rate(Signal signal, WindowedRate rate);
  void add_expression(Signal signal, Expression expression);
  [[nodiscard]] double clamped(size_t signal, double value) const noexcept;

  std::vector<Signal> signals_;
  std::vector<Slot> slots_;
  std::vector<WindowedRate> rates_;
  std::vector<Expression> expressions_;
};

}  // namespace flightrec::model
