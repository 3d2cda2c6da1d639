#include "flightrec/exporter/metrics/process_metrics.h"

#include <algorithm>
#include <map>

#include "flightrec/exposition/collectable.h"
#include "flightrec/model/process_rates.h"
#include "flightrec/model/rankings.h"

namespace flightrec::exporter::metrics {

using exposition::Families;
namespace {

using process::NetCounters;
using process::ProcessFrame;
using process::ProcessRow;

struct Identity {
  int32_t pid;
  int64_t start_ns;
  auto operator<=>(const Identity&) const = default;
};

// One process over the whole window: its counters at its first and last sightings, and its
// largest RSS.
struct Span {
  uint64_t first_cpu = 0;
  uint64_t last_cpu = 0;
  uint64_t max_rss = 0;
  std::optional<NetCounters> first_net;
  std::optional<NetCounters> last_net;
  std::string comm;
};

// The window as two process frames, for model::process_rates: at its start, every process that
// was already alive then, with its counters at its first sighting in the window; at its end,
// every process seen in it, with its counters at its last sighting and its largest RSS. A
// process born inside the window is absent from the first, so its counters count from zero:
// everything it did is in the window, including what happened before its first sighting (a
// short-lived process is seen once). Traffic a process had not moved at its first sighting is
// known as zero then, as the backend counts from when it first sees a process.
std::pair<ProcessFrame, ProcessFrame> window_frames(const std::map<Identity, Span>& spans,
                                                    int64_t from_ns, int64_t to_ns) {
  std::pair<ProcessFrame, ProcessFrame> frames;
  auto& [start, end] = frames;
  start.time_unix_ns = from_ns;
  start.unattributed = NetCounters{};
  end.time_unix_ns = to_ns;
  for (const auto& [id, span] : spans) {
    ProcessRow row;
    row.pid = id.pid;
    row.start_time_unix_ns = id.start_ns;
    if (id.start_ns <= from_ns) {
      row.cpu_user_ns = span.first_cpu;
      row.net = span.first_net;
      start.processes.push_back(row);
    }
    row.cpu_user_ns = span.last_cpu;
    row.net = span.last_net;
    row.rss_bytes = span.max_rss;
    row.comm = span.comm;
    end.processes.push_back(std::move(row));
  }
  return frames;
}

// A counter below its previous value belongs to a new process behind a reused PID: count it whole.
uint64_t grow(uint64_t now, uint64_t was) { return now >= was ? now - was : now; }

void add_rankings(Families& f, const ProcessFrame& end, const model::FrameRates& rates,
                  const model::Rankings& top) {
  const auto labels = [&](const model::Ranked& r) {
    const ProcessRow& row = end.processes[r.row];
    return std::vector<prometheus::ClientMetric::Label>{{"pid", std::to_string(row.pid)},
                                                        {"comm", row.comm}};
  };
  for (const model::Ranked& r : top.cpu) {
    f.gauge("flightrec_top_process_cpu_ratio",
            "CPU seconds per second (1 = one core) over the export window of the top "
            "export.top_processes processes by CPU.",
            "ratio", r.value, labels(r));
  }
  for (const model::Ranked& r : top.memory) {
    f.gauge("flightrec_top_process_resident_memory_bytes",
            "Largest resident set size in the export window of the top export.top_processes "
            "processes by memory.",
            "bytes", r.value, labels(r));
  }
  for (const model::Ranked& r : top.network) {
    const model::NetRates& net = rates.processes[r.row].net;
    for (const auto& [direction, value] :
         {std::pair{"transmit", net.tx_bytes.value_or(0)}, {"receive", net.rx_bytes.value_or(0)}}) {
      auto l = labels(r);
      l.push_back({"direction", direction});
      f.gauge("flightrec_top_process_network_bytes_per_second",
              "Socket payload bytes per second over the export window of the top "
              "export.top_processes processes by traffic (transmit + receive).",
              "", value, std::move(l));
    }
  }
}

template <typename Counts>
void add_counts(Families& f, const Counts& counts, const std::string& backend) {
  for (const auto& [state, count] : counts.states) {
    f.gauge("flightrec_processes", "Processes by state (the state letter of /proc/<pid>/stat).", "",
            count, {{"state", std::string(1, state)}});
  }
  if (!backend.empty()) {
    f.gauge("flightrec_network_backend_info",
            "The per-process network backend in use (network.backend); always 1.", "", 1,
            {{"backend", backend}});
  }
  if (!counts.saw_traffic) return;
  const auto both = [&](const char* name, const char* help, const char* unit, uint64_t tx,
                        uint64_t rx) {
    f.counter(name, help, unit, static_cast<double>(tx), {{"direction", "transmit"}});
    f.counter(name, help, unit, static_cast<double>(rx), {{"direction", "receive"}});
  };
  both("flightrec_network_attributed_bytes_total",
       "Socket payload bytes the network backend charged to a process.", "bytes",
       counts.attributed.tx_bytes, counts.attributed.rx_bytes);
  both("flightrec_network_attributed_packets_total",
       "IP packets the network backend charged to a process.", "", counts.attributed.tx_packets,
       counts.attributed.rx_packets);
  if (const auto& unattributed = counts.unattributed) {
    both("flightrec_network_unattributed_bytes_total",
         "Bytes of packets the network backend saw but could not tie to a process.", "bytes",
         unattributed->tx_bytes, unattributed->rx_bytes);
    both("flightrec_network_unattributed_packets_total",
         "Packets the network backend saw but could not tie to a process.", "",
         unattributed->tx_packets, unattributed->rx_packets);
  }
}

}  // namespace

ProcessMetrics::ProcessMetrics(std::chrono::nanoseconds window, uint32_t top_n, std::string backend)
    : top_n_(top_n),
      backend_(std::move(backend)),
      window_ns_(window.count()),
      bucket_ns_(std::max<int64_t>(window.count() / kBuckets, 1)) {}

void ProcessMetrics::set_window(std::chrono::nanoseconds window) {
  std::lock_guard lock(mutex_);
  window_ns_ = window.count();
  bucket_ns_ = std::max<int64_t>(window.count() / kBuckets, 1);
}

void ProcessMetrics::merge_into(Bucket& bucket, const ProcessFrame& frame) const {
  // Both lists ascend by (pid, start): one linear merge, rows gone from the frame stay.
  std::vector<Row> merged;
  merged.reserve(std::max(bucket.rows.size(), frame.processes.size()));
  auto old = bucket.rows.begin();
  for (const ProcessRow& p : frame.processes) {
    const Identity id{p.pid, p.start_time_unix_ns};
    while (old != bucket.rows.end() && Identity{old->pid, old->start_ns} < id) {
      merged.push_back(std::move(*old++));
    }
    const uint64_t cpu = p.cpu_user_ns + p.cpu_system_ns;
    if (old != bucket.rows.end() && Identity{old->pid, old->start_ns} == id) {
      Row row = std::move(*old++);
      row.last_cpu = cpu;
      row.max_rss = std::max(row.max_rss, p.rss_bytes);
      if (p.net) {
        if (!row.first_net) row.first_net = NetCounters{};  // traffic began in this bucket
        row.last_net = p.net;
      }
      row.comm = p.comm;
      merged.push_back(std::move(row));
    } else {
      merged.push_back({p.pid, p.start_time_unix_ns, cpu, cpu, p.rss_bytes, p.net, p.net, p.comm});
    }
  }
  std::move(old, bucket.rows.end(), std::back_inserter(merged));
  // Rows appended last may break the order when a frame's pids repeat with other start times.
  std::sort(merged.begin(), merged.end(), [](const Row& a, const Row& b) {
    return Identity{a.pid, a.start_ns} < Identity{b.pid, b.start_ns};
  });
  bucket.rows = std::move(merged);
  bucket.last_ns = frame.time_unix_ns;
}

void ProcessMetrics::observe(const ProcessFrame& frame) {
  std::map<char, uint32_t> states;
  for (const auto& p : frame.processes) {
    if (!p.exited) ++states[p.state];
  }
  std::lock_guard lock(mutex_);
  add_attributed(frame);
  counts_.states.assign(states.begin(), states.end());
  if (buckets_.empty() || frame.time_unix_ns >= buckets_.back().first_ns + bucket_ns_) {
    buckets_.push_back({frame.time_unix_ns, frame.time_unix_ns, {}});
  }
  merge_into(buckets_.back(), frame);
  // Keep one bucket that starts before the window: a rate over the whole window starts there.
  while (buckets_.size() > 2 && buckets_[1].first_ns <= frame.time_unix_ns - window_ns_) {
    buckets_.pop_front();
  }
}

void ProcessMetrics::add_attributed(const ProcessFrame& frame) {
  std::unordered_map<int32_t, std::pair<int64_t, NetCounters>> now;
  for (const auto& p : frame.processes) {
    if (!p.net) continue;
    counts_.saw_traffic = true;
    const auto it = last_net_.find(p.pid);
    // Rows known only from the network backend carry no start time (0): match those by pid.
    const bool same = it != last_net_.end() && (it->second.first == p.start_time_unix_ns ||
                                                p.start_time_unix_ns == 0 || it->second.first == 0);
    const NetCounters prev = same ? it->second.second : NetCounters{};
    counts_.attributed.tx_bytes += grow(p.net->tx_bytes, prev.tx_bytes);
    counts_.attributed.rx_bytes += grow(p.net->rx_bytes, prev.rx_bytes);
    counts_.attributed.tx_packets += grow(p.net->tx_packets, prev.tx_packets);
    counts_.attributed.rx_packets += grow(p.net->rx_packets, prev.rx_packets);
    now[p.pid] = {p.start_time_unix_ns, *p.net};
  }
  last_net_ = std::move(now);
  if (frame.unattributed) counts_.unattributed = frame.unattributed;
}

std::pair<ProcessFrame, ProcessFrame> ProcessMetrics::window_held() const {
  std::map<Identity, Span> spans;
  for (const Bucket& bucket : buckets_) {
    for (const Row& row : bucket.rows) {
      auto [it, fresh] = spans.try_emplace(Identity{row.pid, row.start_ns});
      Span& span = it->second;
      if (fresh) {
        span.first_cpu = row.first_cpu;
        span.first_net = row.first_net;
      }
      span.last_cpu = row.last_cpu;
      span.max_rss = std::max(span.max_rss, row.max_rss);
      if (row.last_net) {
        if (!span.first_net) span.first_net = NetCounters{};  // traffic began in the window
        span.last_net = row.last_net;
      }
      span.comm = row.comm;
    }
  }
  const int64_t from_ns = buckets_.empty() ? 0 : buckets_.front().first_ns;
  const int64_t to_ns = buckets_.empty() ? 0 : buckets_.back().last_ns;
  return window_frames(spans, from_ns, to_ns);
}

void ProcessMetrics::collect(std::vector<prometheus::MetricFamily>& families,
                             exposition::ExtrasByFamily& extras, double created) const {
  std::pair<ProcessFrame, ProcessFrame> window;
  Counts counts;
  {
    std::lock_guard lock(mutex_);
    window = window_held();
    counts = counts_;
  }
  // Rates are over the window (what Prometheus users divide by), not over each process's life.
  const auto& [start, end] = window;
  const model::FrameRates rates = model::process_rates(&start, end);
  Families f(families, extras, created);
  add_rankings(f, end, rates,
               model::rank_processes(end, rates, top_n_.load(std::memory_order_relaxed)));
  add_counts(f, counts, backend_);
}

}  // namespace flightrec::exporter::metrics
