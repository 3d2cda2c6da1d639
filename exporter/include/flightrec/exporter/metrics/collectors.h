#pragma once
// The collectors of the machine and of the layers below the consumers (sampler, recorder, rings,
// web server) and of flightrec's own cost: those layers know nothing of Prometheus. Each consumer's
// collector is in its own folder (incidents/, trigger/). The app adds them all to Collectables in
// the order of the output. Label sets are bounded by the schema (CPUs, and devices up to max_keys)
// and by export.top_processes: no unbounded PID labels. Every family is listed in docs/METRICS.md.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "flightrec/ebpf/bpf_run_stats.h"
#include "flightrec/exporter/metrics/process_metrics.h"
#include "flightrec/exporter/metrics/thread_cpu.h"
#include "flightrec/exposition/collectable.h"
#include "flightrec/exposition/format.h"
#include "flightrec/http/server_stats.h"
#include "flightrec/recorder/container_recorder.h"
#include "flightrec/recorder/process_recorder_stats.h"
#include "flightrec/recorder/recorder.h"
#include "flightrec/sampler/sampler_stats.h"
#include "flightrec/sampler/series.h"
#include "flightrec/store/container_ring.h"
#include "flightrec/store/process_ring.h"
#include "flightrec/store/ring.h"

namespace flightrec::exporter::metrics {

// The machine: the raw counters and gauges of every system series (newest frame), then the
// window aggregates and per-tick histograms of the derived signals.
class SystemCollector final : public exposition::Collectable {
 public:
  // Both must outlive the collector.
  SystemCollector(const sampler::Schema& schema, const recorder::Recorder& recorder);
  void collect(exposition::Families& out) const override;

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

  void collect_raw(exposition::Families& out) const;
  void collect_aggregates(exposition::Families& out) const;
  void collect_histograms(exposition::Families& out) const;

  const sampler::Schema& schema_;
  const recorder::Recorder& recorder_;
  std::vector<RawFamily> raw_;
  std::vector<SignalFamily> signal_families_;
};

// The process tier's rankings (ProcessMetrics: top processes, states, attributed traffic).
class ProcessRankingsCollector final : public exposition::Collectable {
 public:
  explicit ProcessRankingsCollector(const ProcessMetrics& processes) : processes_(processes) {}
  void collect(exposition::Families& out) const override;

 private:
  const ProcessMetrics& processes_;
};

// What this flightrec is: build info, start time and the configured sampler and export periods.
class InstanceCollector final : public exposition::Collectable {
 public:
  struct Settings {
    int64_t start_real_ns = 0;
    std::chrono::nanoseconds sampler_rate{0};
    // export.window as it is now (a reload may change it); empty reads as 0.
    std::function<std::chrono::nanoseconds()> export_window;
  };
  explicit InstanceCollector(Settings settings) : settings_(std::move(settings)) {}
  void collect(exposition::Families& out) const override;

 private:
  Settings settings_;
};

// The sampler's health: ticks (late, missed, queue overflows), the lateness histogram and every
// source's reads, failures, partial reads, read time and newest success.
class SamplerCollector final : public exposition::Collectable {
 public:
  explicit SamplerCollector(const sampler::SamplerStats& stats) : stats_(stats) {}
  void collect(exposition::Families& out) const override;

 private:
  const sampler::SamplerStats& stats_;
};

// The recorder's throughput and the ring's size, span and compression.
class RecorderCollector final : public exposition::Collectable {
 public:
  RecorderCollector(const recorder::Recorder& recorder, const store::Ring& ring)
      : recorder_(recorder), ring_(ring) {}
  void collect(exposition::Families& out) const override;

 private:
  const recorder::Recorder& recorder_;
  const store::Ring& ring_;
};

// The process tier's own health (ticks, reads, drops) and its ring.
class ProcessTierCollector final : public exposition::Collectable {
 public:
  // `backend`: the process backend in use ("ebpf", "procfs"); "" leaves its info gauge out.
  ProcessTierCollector(const recorder::ProcessRecorderStats& stats, const store::ProcessRing& ring,
                       std::string backend = {})
      : stats_(stats), ring_(ring), backend_(std::move(backend)) {}
  void collect(exposition::Families& out) const override;

 private:
  const recorder::ProcessRecorderStats& stats_;
  const store::ProcessRing& ring_;
  std::string backend_;
};

// The container tier: the counters, limits and largest throttled share of the
// export.top_containers containers it exports (cAdvisor's families, under flightrec_container_*,
// with cAdvisor's labels), how many it tracks, leaves untracked and exports, and its own health.
class ContainerCollector final : public exposition::Collectable {
 public:
  // `tier` must outlive the collector.
  ContainerCollector(const recorder::ContainerRecorder& tier, uint32_t top_n)
      : tier_(tier), top_n_(top_n) {}
  // Any thread (a configuration reload): containers exported from the next scrape on.
  void set_top_n(uint32_t top_n) { top_n_.store(top_n, std::memory_order_relaxed); }
  void collect(exposition::Families& out) const override;

 private:
  void collect_tier(exposition::Families& out,
                    const recorder::containers::ContainerTierSnapshot& snapshot,
                    size_t exported) const;

  const recorder::ContainerRecorder& tier_;
  std::atomic<uint32_t> top_n_;
};

// The container ring's size and what its bounds dropped (store/container_ring.h).
class ContainerRingCollector final : public exposition::Collectable {
 public:
  // `ring` must outlive the collector.
  explicit ContainerRingCollector(const store::ContainerRing& ring) : ring_(ring) {}
  void collect(exposition::Families& out) const override;

 private:
  const store::ContainerRing& ring_;
};

// What flightrec itself costs: its CPU per thread group and its eBPF programs' kernel run time.
// The BPF families appear only when the process holds BPF programs, and their run time only while
// the kernel counts it (the collector turns counting on for its lifetime where permitted).
class SelfCostCollector final : public exposition::Collectable {
 public:
  struct Settings {
    std::filesystem::path procfs = "/proc";
    ebpf::BpfProgramReader bpf_reader = ebpf::read_bpf_program;
    bool enable_bpf_stats = true;  // tests leave the host's setting alone
  };
  explicit SelfCostCollector(Settings settings);
  void collect(exposition::Families& out) const override;

 private:
  void collect_bpf(exposition::Families& out) const;
  [[nodiscard]] bool bpf_stats_on() const;

  Settings settings_;
  mutable ThreadCpuReader threads_;
  ebpf::OwnBpfPrograms bpf_programs_;
  std::unique_ptr<ebpf::BpfStatsSwitch> bpf_stats_;  // null when not asked or no programs
};

// The web server: responses by route and status, connections the gate accepted and closed (by
// why), refused credentials (by kind).
class HttpCollector final : public exposition::Collectable {
 public:
  explicit HttpCollector(const http::ServerStats& stats) : stats_(stats) {}
  void collect(exposition::Families& out) const override;

 private:
  const http::ServerStats& stats_;
};

// /metrics itself: the previous scrape's duration, the CPU of all earlier ones, and their count
// by format. The /metrics route records each scrape; the next one exposes it.
class ScrapeCollector final : public exposition::Collectable {
 public:
  void record(exposition::Format format, int64_t ns, int64_t cpu_ns) noexcept;
  void collect(exposition::Families& out) const override;

 private:
  std::atomic<int64_t> last_scrape_ns_{0};
  std::atomic<int64_t> scrape_cpu_ns_{0};
  std::atomic<uint64_t> text_scrapes_{0};
  std::atomic<uint64_t> openmetrics_scrapes_{0};
};

}  // namespace flightrec::exporter::metrics
