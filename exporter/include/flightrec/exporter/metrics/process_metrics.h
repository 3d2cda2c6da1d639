#pragma once
// The process tier in /metrics: the top N processes by CPU, memory and network over the export
// window (labelled pid and comm, so the label set stays bounded whatever the PID churn), process
// counts by state, and the network attribution totals that reconcile with /proc/net/dev.
#include <prometheus/metric_family.h>

#include <chrono>
#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "flightrec/exporter/exposition/serialize.h"
#include "flightrec/sampler/process/process_frame.h"

namespace flightrec::exporter::metrics {

class ProcessMetrics {
 public:
  ProcessMetrics(std::chrono::nanoseconds window, uint32_t top_n, std::string backend);

  // Each process-tier frame, in time order (process-tier thread).
  void observe(const sampler::process::ProcessFrame& frame);

  // Appends the families (any thread). `created` is the daemon's start, for the counters.
  void collect(std::vector<prometheus::MetricFamily>& families, exposition::ExtrasByFamily& extras,
               double created) const;

 private:
  // What the rankings need of one process in one frame; comm fits std::string's inline buffer.
  struct Row {
    int32_t pid = 0;
    int64_t start_ns = 0;  // with pid, identifies the process across PID reuse
    uint64_t cpu_ns = 0;
    uint64_t rss = 0;
    std::optional<sampler::process::NetCounters> net;
    std::string comm;
  };
  struct Slice {
    int64_t time_ns = 0;
    std::vector<Row> rows;
  };

  void add_attributed(const sampler::process::ProcessFrame& frame);

  const int64_t window_ns_;
  const uint32_t top_n_;
  const std::string backend_;
  mutable std::mutex mutex_;
  std::deque<Slice> slices_;                       // frames within the window, oldest first
  std::vector<std::pair<char, uint32_t>> states_;  // of the newest frame
  // Attributed traffic accumulated from per-process increases, so it keeps counting up when
  // processes exit and their rows go away.
  sampler::process::NetCounters attributed_;
  std::optional<sampler::process::NetCounters> unattributed_;
  bool saw_traffic_ = false;
};

}  // namespace flightrec::exporter::metrics
