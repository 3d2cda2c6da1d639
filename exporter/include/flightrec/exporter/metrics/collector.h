#pragma once
// Everything /metrics exposes, as prometheus-cpp families: the raw counters and gauges of every
// system series (newest frame), the sliding-window aggregates and per-tick histograms of the key
// signals, the process tier's rankings, and flightrec's own health. Label sets are bounded by the
// schema (CPUs, and devices up to max_keys) and by export.top_processes: no unbounded PID labels.
#include <prometheus/metric_family.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "flightrec/exporter/exposition/serialize.h"
#include "flightrec/exporter/metrics/process_metrics.h"
#include "flightrec/incidents/incident_store.h"
#include "flightrec/recorder/process_recorder_stats.h"
#include "flightrec/recorder/recorder.h"
#include "flightrec/sampler/sampler.h"
#include "flightrec/store/process_ring.h"
#include "flightrec/store/ring.h"
#include "flightrec/trigger/writer.h"

namespace flightrec::exporter::metrics {

struct CollectorInputs {
  const sampler::Sampler* sampler = nullptr;
  const recorder::Recorder* recorder = nullptr;
  const store::Ring* ring = nullptr;
  const incidents::IncidentStore* incidents = nullptr;
  const trigger::IncidentWriter* incident_writer = nullptr;
  int64_t start_real_ns = 0;  // when the daemon started: _created of its own counters
  // The process tier; all null when processes.enabled is false.
  const ProcessMetrics* processes = nullptr;
  const recorder::ProcessRecorderStats* process_tier = nullptr;
  const store::ProcessRing* process_ring = nullptr;
};

class Collector {
 public:
  explicit Collector(CollectorInputs inputs);

  // Families in a stable order; `extras` gets units and created times. `now_mono_ns` ends the
  // aggregate window. Any thread, concurrently with the sampler and recorder.
  void collect(int64_t now_mono_ns, std::vector<prometheus::MetricFamily>& families,
               exposition::ExtrasByFamily& extras) const;

  // The handler reports each scrape's format and duration; the next scrape exposes them.
  void record_scrape(exposition::Format format, int64_t ns, int64_t cpu_ns) noexcept {
    last_scrape_ns_.store(ns, std::memory_order_relaxed);
    scrape_cpu_ns_.fetch_add(cpu_ns, std::memory_order_relaxed);
    (format == exposition::Format::openmetrics_1_0_0 ? openmetrics_scrapes_ : text_scrapes_)
        .fetch_add(1, std::memory_order_relaxed);
  }

 private:
  // Raw series grouped by family, in schema order.
  struct RawFamily {
    std::string name;  // with the flightrec_ prefix
    std::string help;
    std::string unit;
    bool counter = false;
    std::vector<size_t> series;
  };
  // Derived signals grouped by family name.
  struct SignalFamily {
    std::string name;
    std::string help;
    std::string unit;
    bool histogram = false;
    std::vector<size_t> signals;
  };

  void collect_raw(std::vector<prometheus::MetricFamily>& families,
                   exposition::ExtrasByFamily& extras) const;
  void collect_signals(int64_t now_mono_ns, std::vector<prometheus::MetricFamily>& families,
                       exposition::ExtrasByFamily& extras) const;

  CollectorInputs in_;
  std::vector<RawFamily> raw_;
  std::vector<SignalFamily> signal_families_;
  std::string window_label_;
  std::atomic<int64_t> last_scrape_ns_{0};
  std::atomic<int64_t> scrape_cpu_ns_{0};
  std::atomic<uint64_t> text_scrapes_{0};
  std::atomic<uint64_t> openmetrics_scrapes_{0};
};

// Labels of a series: its fixed labels, then its keyed label once the slot is bound.
// False when the series' key slot is not bound yet (the series is not exposed).
bool series_labels(const sampler::SeriesDesc& desc,
                   std::vector<prometheus::ClientMetric::Label>& out);

}  // namespace flightrec::exporter::metrics
