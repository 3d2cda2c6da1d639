#include "flightrec/exporter/metrics/process_metrics.h"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "family_builder.h"

namespace flightrec::exporter::metrics {
namespace {

using sampler::process::NetCounters;
using sampler::process::ProcessFrame;

struct Identity {
  int32_t pid;
  int64_t start_ns;
  bool operator==(const Identity&) const = default;
};
struct IdentityHash {
  size_t operator()(const Identity& id) const noexcept {
    // Unsigned: start times in ns overflow a signed multiply.
    return std::hash<uint64_t>{}(static_cast<uint64_t>(id.start_ns) * 31U +
                                 static_cast<uint32_t>(id.pid));
  }
};

// One process over the window: where it was first and last seen, and its largest RSS.
struct Span {
  int64_t first_ns = 0;
  int64_t last_ns = 0;
  uint64_t first_cpu = 0;
  uint64_t last_cpu = 0;
  uint64_t max_rss = 0;
  std::optional<NetCounters> first_net;
  std::optional<NetCounters> last_net;
  std::string comm;
};

struct Ranked {
  double value = 0;
  int32_t pid = 0;
  const std::string* comm = nullptr;
};

// Largest `n` by value; ties by pid so the output is stable from one scrape to the next.
void keep_top(std::vector<Ranked>& ranked, size_t n) {
  const auto order = [](const Ranked& a, const Ranked& b) {
    return a.value != b.value ? a.value > b.value : a.pid < b.pid;
  };
  if (ranked.size() > n) {
    std::partial_sort(ranked.begin(), ranked.begin() + static_cast<std::ptrdiff_t>(n), ranked.end(),
                      order);
    ranked.resize(n);
  } else {
    std::sort(ranked.begin(), ranked.end(), order);
  }
}

double per_second(uint64_t first, uint64_t last, int64_t ns) {
  return last >= first ? static_cast<double>(last - first) * 1e9 / static_cast<double>(ns) : 0.0;
}

}  // namespace

ProcessMetrics::ProcessMetrics(std::chrono::nanoseconds window, uint32_t top_n, std::string backend)
    : window_ns_(window.count()), top_n_(top_n), backend_(std::move(backend)) {}

void ProcessMetrics::observe(const ProcessFrame& frame) {
  Slice slice;
  slice.time_ns = frame.time_unix_ns;
  slice.rows.reserve(frame.processes.size());
  std::map<char, uint32_t> states;
  for (const auto& p : frame.processes) {
    slice.rows.push_back(
        {p.pid, p.start_time_unix_ns, p.cpu_user_ns + p.cpu_system_ns, p.rss_bytes, p.net, p.comm});
    if (!p.exited) ++states[p.state];
  }
  std::lock_guard lock(mutex_);
  add_attributed(frame);
  states_.assign(states.begin(), states.end());
  slices_.push_back(std::move(slice));
  // Keep one frame older than the window so a rate over the whole window has its start point.
  while (slices_.size() > 2 && slices_[1].time_ns <= frame.time_unix_ns - window_ns_) {
    slices_.pop_front();
  }
}

void ProcessMetrics::add_attributed(const ProcessFrame& frame) {
  std::unordered_map<int32_t, const NetCounters*> before;
  if (!slices_.empty()) {
    for (const Row& row : slices_.back().rows) {
      if (row.net) before.emplace(row.pid, &*row.net);
    }
  }
  for (const auto& p : frame.processes) {
    if (!p.net) continue;
    saw_traffic_ = true;
    const auto it = before.find(p.pid);
    const NetCounters zero;
    const NetCounters& prev = it == before.end() ? zero : *it->second;
    // A counter below its previous value is a new process behind a reused PID: count it whole.
    const auto grow = [](uint64_t now, uint64_t was) { return now >= was ? now - was : now; };
    attributed_.tx_bytes += grow(p.net->tx_bytes, prev.tx_bytes);
    attributed_.rx_bytes += grow(p.net->rx_bytes, prev.rx_bytes);
    attributed_.tx_packets += grow(p.net->tx_packets, prev.tx_packets);
    attributed_.rx_packets += grow(p.net->rx_packets, prev.rx_packets);
  }
  if (frame.unattributed) unattributed_ = frame.unattributed;
}

void ProcessMetrics::collect(std::vector<prometheus::MetricFamily>& families,
                             exposition::ExtrasByFamily& extras, double created) const {
  std::unordered_map<Identity, Span, IdentityHash> spans;
  std::vector<std::pair<char, uint32_t>> states;
  NetCounters attributed;
  std::optional<NetCounters> unattributed;
  bool saw_traffic = false;
  {
    std::lock_guard lock(mutex_);
    for (const Slice& slice : slices_) {
      for (const Row& row : slice.rows) {
        auto [it, fresh] = spans.try_emplace(Identity{row.pid, row.start_ns});
        Span& span = it->second;
        if (fresh) {
          span.first_ns = slice.time_ns;
          span.first_cpu = row.cpu_ns;
          span.first_net = row.net;
        }
        span.last_ns = slice.time_ns;
        span.last_cpu = row.cpu_ns;
        span.max_rss = std::max(span.max_rss, row.rss);
        if (row.net) {
          if (!span.first_net) span.first_net = NetCounters{};  // traffic began in the window
          span.last_net = row.net;
        }
        span.comm = row.comm;
      }
    }
    states = states_;
    attributed = attributed_;
    unattributed = unattributed_;
    saw_traffic = saw_traffic_;
  }

  std::vector<Ranked> cpu, memory, network;
  std::unordered_map<int32_t, std::pair<double, double>> rates;  // pid -> (tx, rx) bytes/s
  for (const auto& [id, span] : spans) {
    memory.push_back({static_cast<double>(span.max_rss), id.pid, &span.comm});
    const int64_t ns = span.last_ns - span.first_ns;
    if (ns <= 0) continue;  // seen once: no rate yet
    cpu.push_back({per_second(span.first_cpu, span.last_cpu, ns) * 1e-9, id.pid, &span.comm});
    if (span.first_net && span.last_net) {
      const double tx = per_second(span.first_net->tx_bytes, span.last_net->tx_bytes, ns);
      const double rx = per_second(span.first_net->rx_bytes, span.last_net->rx_bytes, ns);
      network.push_back({tx + rx, id.pid, &span.comm});
      rates[id.pid] = {tx, rx};
    }
  }
  keep_top(cpu, top_n_);
  keep_top(memory, top_n_);
  keep_top(network, top_n_);

  Families f(families, extras, created);
  const auto labels = [](const Ranked& r) {
    return std::vector<prometheus::ClientMetric::Label>{{"pid", std::to_string(r.pid)},
                                                        {"comm", *r.comm}};
  };
  for (const Ranked& r : cpu) {
    f.gauge("flightrec_top_process_cpu_ratio",
            "CPU seconds per second (1 = one core) of the top export.top_processes processes by "
            "CPU, over the export window.",
            "ratio", r.value, labels(r));
  }
  for (const Ranked& r : memory) {
    f.gauge("flightrec_top_process_resident_memory_bytes",
            "Largest resident set size in the export window of the top export.top_processes "
            "processes by memory.",
            "bytes", r.value, labels(r));
  }
  for (const Ranked& r : network) {
    const auto [tx, rx] = rates[r.pid];
    for (const auto& [direction, value] : {std::pair{"transmit", tx}, {"receive", rx}}) {
      auto l = labels(r);
      l.push_back({"direction", direction});
      f.gauge("flightrec_top_process_network_bytes_per_second",
              "Socket payload bytes per second over the export window of the top "
              "export.top_processes processes by traffic (transmit + receive).",
              "", value, std::move(l));
    }
  }
  for (const auto& [state, count] : states) {
    f.gauge("flightrec_processes", "Processes by state (the state letter of /proc/<pid>/stat).", "",
            count, {{"state", std::string(1, state)}});
  }
  if (!backend_.empty()) {
    f.gauge("flightrec_network_backend_info",
            "The per-process network backend in use (network.backend); always 1.", "", 1,
            {{"backend", backend_}});
  }
  if (saw_traffic) {
    const auto bytes = [&](const char* name, const char* help, const NetCounters& n) {
      f.counter(name, help, "bytes", static_cast<double>(n.tx_bytes), {{"direction", "transmit"}});
      f.counter(name, help, "bytes", static_cast<double>(n.rx_bytes), {{"direction", "receive"}});
    };
    bytes("flightrec_network_attributed_bytes_total",
          "Socket payload bytes the network backend charged to a process.", attributed);
    if (unattributed) {
      bytes("flightrec_network_unattributed_bytes_total",
            "Bytes of packets the network backend saw but could not tie to a process.",
            *unattributed);
    }
  }
}

}  // namespace flightrec::exporter::metrics
