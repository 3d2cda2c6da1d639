#pragma once
// The key signals of a recording as the viewer plots them. They are the recorder's own derivation
// (model/signals.h: CPU busy ratios, memory used, PSI stall ratios, disk and network byte rates)
// replayed over the stored frames, so the page shows exactly what triggers and /metrics saw. The
// result is bounded: beyond `max_values` points in all, each point is the maximum over a bucket of
// consecutive ticks, so spikes survive the downsampling.
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "flightrec/recording/metadata.h"
#include "flightrec/store/block.h"
#include "flightrec/store/cursor.h"

namespace flightrec::viewer {

// 60 s at 1 ms of ~50 lines stays at full resolution; the page then weighs ~15-20 MB of JSON
// (~3 MB gzipped), which Chromium parses and uPlot draws in about a second.
inline constexpr size_t kDefaultMaxValues = 3'000'000;

struct Line {
  std::string label;           // e.g. "total", "cpu 3", "sda read", "cpu some"
  std::vector<double> values;  // one per point; NaN where there is no value
};

struct Chart {
  std::string id;     // "cpu", "memory", "pressure", "disk", "network"
  std::string title;  // e.g. "CPU busy"
  std::string unit;   // "ratio", "bytes" or "bytes/s"
  std::vector<Line> lines;
};

struct SignalWindow {
  std::vector<int64_t> times_ns;  // Unix ns of each point: the first tick of its bucket
  std::vector<Chart> charts;      // in the order above; a chart without any line is left out
  uint64_t frames = 0;            // frames inside the range
  uint64_t bucket_ticks = 1;      // frames per point; 1 is full resolution
};

// Disk and network lines that stay at zero through the window are dropped (idle loop devices,
// unplugged interfaces); when every line of such a chart is idle, its first line is kept. Only the
// lines kept share `max_values`.
SignalWindow key_signals(const recording::Metadata& metadata,
                         std::span<const std::shared_ptr<const store::Block>> blocks,
                         store::TimeRange range = {}, size_t max_values = kDefaultMaxValues);

}  // namespace flightrec::viewer
