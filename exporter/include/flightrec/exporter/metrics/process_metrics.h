#pragma once
// The process tier in /metrics: the top N processes by CPU, memory and network over the export
// window (labelled pid and comm, so the label set stays bounded whatever the PID churn), process
// counts by state, and the network attribution totals that reconcile with /proc/net/dev.
#include <prometheus/metric_family.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "flightrec/exposition/serialize.h"
#include "flightrec/process/process_frame.h"

namespace flightrec::exporter::metrics {

class ProcessMetrics {
 public:
  // The window is kept as at most kBuckets buckets, so memory is bounded by the processes per
  // bucket, not by export.window / sampler.process_rate.
  static constexpr int64_t kBuckets = 60;

  ProcessMetrics(std::chrono::nanoseconds window, uint32_t top_n, std::string backend);

  // Each process-tier frame, in time order (process-tier thread).
  void observe(const process::ProcessFrame& frame);

  // Any thread (a configuration reload): processes per ranking from the next scrape on.
  void set_top_n(uint32_t top_n) { top_n_.store(top_n, std::memory_order_relaxed); }
  // Any thread (a configuration reload): rankings over `window` from the next frame on. What is
  // held is kept: a shorter window drops its oldest buckets, a longer one fills as frames come.
  void set_window(std::chrono::nanoseconds window);

  // Appends the families (any thread). `created` is the daemon's start, for the counters.
  void collect(std::vector<prometheus::MetricFamily>& families, exposition::ExtrasByFamily& extras,
               double created) const;

 private:
  // One process over one bucket: its counters when first and last seen there, its largest RSS.
  struct Row {
    int32_t pid = 0;
    int64_t start_ns = 0;  // with pid, identifies the process across PID reuse
    uint64_t first_cpu = 0;
    uint64_t last_cpu = 0;
    uint64_t max_rss = 0;
    std::optional<process::NetCounters> first_net;
    std::optional<process::NetCounters> last_net;
    std::string comm;  // fits std::string's inline buffer
  };
  struct Bucket {
    int64_t first_ns = 0;
    int64_t last_ns = 0;
    std::vector<Row> rows;  // ascending (pid, start_ns)
  };

  // The counters /metrics shows beside the rankings.
  struct Counts {
    std::vector<std::pair<char, uint32_t>> states;  // of the newest frame
    // Attributed traffic accumulated from per-process increases, so it keeps counting up when
    // processes exit and their rows go away.
    process::NetCounters attributed;
    std::optional<process::NetCounters> unattributed;
    bool saw_traffic = false;
  };

  void merge_into(Bucket& bucket, const process::ProcessFrame& frame) const;
  // The window as two frames for model::process_rates; mutex_ held.
  [[nodiscard]] std::pair<process::ProcessFrame, process::ProcessFrame> window_held() const;
  void add_attributed(const process::ProcessFrame& frame);

  std::atomic<uint32_t> top_n_;
  const std::string backend_;
  mutable std::mutex mutex_;
  int64_t window_ns_;  // guarded by mutex_, as everything below
  int64_t bucket_ns_;
  std::deque<Bucket> buckets_;  // oldest first; the oldest may start before the window
  Counts counts_;
  std::unordered_map<int32_t, std::pair<int64_t, process::NetCounters>> last_net_;
};

}  // namespace flightrec::exporter::metrics
