#include <algorithm>
#include <array>
#include <string>
#include <string_view>
#include <utility>

#include "flightrec/exporter/metrics/collectors.h"
#include "flightrec/exporter/metrics/container_ranking.h"
#include "flightrec/exposition/conversions.h"
#include "flightrec/recorder/containers/container_labels.h"

namespace flightrec::exporter::metrics {
namespace {

using container::kAbsent;
using container::kUnlimited;
using exposition::as_double;
using exposition::Families;
using exposition::seconds;
using prometheus::ClientMetric;
using prometheus::MetricType;
using recorder::containers::ContainerView;
using Labels = std::vector<ClientMetric::Label>;

// Divided by, not multiplied by its inverse: 20000 µs is 0.02 s exactly as written.
constexpr double kMicrosecondsPerSecond = 1e6;

// One family over the exported containers, built whole: the kernel's counters began when each
// cgroup was made, not when the daemon started, so they carry no created time.
class FamilyBuilder {
 public:
  FamilyBuilder(std::string_view name, std::string_view help, MetricType type) {
    family_.name = name;
    family_.help = help;
    family_.type = type;
  }
  // A value that is absent, or a limit that is not set, is no sample: Prometheus users compare
  // usage with a limit, and a series that is not there matches nothing rather than dividing by
  // a huge number.
  void sample(const Labels& labels, int64_t raw, double per_unit) {
    if (raw == kAbsent || raw == kUnlimited) return;
    sample(labels, static_cast<double>(raw) / per_unit);
  }
  void sample(const Labels& labels, double value) {
    ClientMetric metric;
    metric.label = labels;
    if (family_.type == MetricType::Counter) {
      metric.counter.value = value;
    } else {
      metric.gauge.value = value;
    }
    family_.metric.push_back(std::move(metric));
  }
  void add_to(Families& out, std::string_view unit) {
    if (!family_.metric.empty()) out.add(std::move(family_), std::string(unit));
  }

 private:
  prometheus::MetricFamily family_;
};

// A number of one container's newest reads, in the kernel's unit.
using Field = int64_t (*)(const ContainerView&);

struct Column {
  std::string_view name;
  std::string_view help;
  std::string_view unit;
  MetricType type;
  double per_unit;  // the kernel's units in one of the family's base unit
  Field field;
};

// The families with one series per container, in the order of the output (docs/METRICS.md).
// Named after cAdvisor's container_* families.
constexpr std::array kColumns{
    Column{"flightrec_container_cpu_usage_seconds_total",
           "CPU time the container's cgroup used (cpu.stat usage_usec; v1 cpuacct.usage).",
           "seconds", MetricType::Counter, kMicrosecondsPerSecond,
           [](const ContainerView& c) { return c.stats.cpu.usage_us; }},
    Column{"flightrec_container_cpu_user_seconds_total",
           "CPU time the container used in user mode (v1: in USER_HZ steps).", "seconds",
           MetricType::Counter, kMicrosecondsPerSecond,
           [](const ContainerView& c) { return c.stats.cpu.user_us; }},
    Column{"flightrec_container_cpu_system_seconds_total",
           "CPU time the container used in kernel mode (v1: in USER_HZ steps).", "seconds",
           MetricType::Counter, kMicrosecondsPerSecond,
           [](const ContainerView& c) { return c.stats.cpu.system_us; }},
    Column{"flightrec_container_cpu_cfs_periods_total",
           "CFS bandwidth periods in which the container had runnable tasks (nr_periods).", "",
           MetricType::Counter, 1, [](const ContainerView& c) { return c.stats.cpu.periods; }},
    Column{"flightrec_container_cpu_cfs_throttled_periods_total",
           "CFS periods in which the container was throttled (nr_throttled).", "",
           MetricType::Counter, 1,
           [](const ContainerView& c) { return c.stats.cpu.throttled_periods; }},
    Column{"flightrec_container_cpu_cfs_throttled_seconds_total",
           "Time the container's run queues were throttled, added over its CPUs "
           "(throttled_usec; v1 throttled_time).",
           "seconds", MetricType::Counter, kMicrosecondsPerSecond,
           [](const ContainerView& c) { return c.stats.cpu.throttled_us; }},
    Column{"flightrec_container_spec_cpu_quota_seconds",
           "CPU time the container may use per CFS period (cpu.max; v1 cpu.cfs_quota_us); "
           "absent without a quota.",
           "seconds", MetricType::Gauge, kMicrosecondsPerSecond,
           [](const ContainerView& c) { return c.stats.bandwidth.quota_us; }},
    Column{"flightrec_container_spec_cpu_period_seconds",
           "The container's CFS period (cpu.max; v1 cpu.cfs_period_us).", "seconds",
           MetricType::Gauge, kMicrosecondsPerSecond,
           [](const ContainerView& c) { return c.stats.bandwidth.period_us; }},
    Column{"flightrec_container_memory_usage_bytes",
           "Memory charged to the container (memory.current; v1 memory.usage_in_bytes).", "bytes",
           MetricType::Gauge, 1, [](const ContainerView& c) { return c.stats.memory.usage_bytes; }},
    Column{"flightrec_container_memory_limit_bytes",
           "The container's memory limit (memory.max; v1 memory.limit_in_bytes); absent when "
           "unlimited.",
           "bytes", MetricType::Gauge, 1,
           [](const ContainerView& c) { return c.stats.memory.limit_bytes; }},
    Column{"flightrec_container_memory_high_bytes",
           "The container's memory.high throttling threshold (v2); absent when unlimited.", "bytes",
           MetricType::Gauge, 1, [](const ContainerView& c) { return c.stats.memory.high_bytes; }},
    Column{"flightrec_container_memory_swap_bytes",
           "Swap used by the container (memory.swap.current; v1 memory.stat total_swap).", "bytes",
           MetricType::Gauge, 1, [](const ContainerView& c) { return c.stats.memory.swap_bytes; }},
    Column{"flightrec_container_memory_rss_bytes",
           "Anonymous memory of the container (memory.stat anon; v1 total_rss).", "bytes",
           MetricType::Gauge, 1, [](const ContainerView& c) { return c.stats.memory.stat.anon; }},
    Column{"flightrec_container_memory_cache_bytes",
           "Page cache charged to the container (memory.stat file; v1 total_cache).", "bytes",
           MetricType::Gauge, 1, [](const ContainerView& c) { return c.stats.memory.stat.file; }},
    Column{"flightrec_container_memory_shmem_bytes",
           "Shared memory and tmpfs of the container (memory.stat shmem; v1 total_shmem).", "bytes",
           MetricType::Gauge, 1, [](const ContainerView& c) { return c.stats.memory.stat.shmem; }},
    Column{"flightrec_container_memory_kernel_bytes",
           "Kernel memory charged to the container (memory.stat kernel, v2 on Linux 5.18+).",
           "bytes", MetricType::Gauge, 1,
           [](const ContainerView& c) { return c.stats.memory.stat.kernel; }},
    Column{"flightrec_container_memory_slab_bytes",
           "Slab memory charged to the container (memory.stat slab, v2).", "bytes",
           MetricType::Gauge, 1, [](const ContainerView& c) { return c.stats.memory.stat.slab; }},
    Column{"flightrec_container_memory_major_faults_total",
           "Major page faults in the container (memory.stat pgmajfault; v1 total_pgmajfault).", "",
           MetricType::Counter, 1,
           [](const ContainerView& c) { return c.stats.memory.stat.major_faults; }},
    Column{"flightrec_container_pids", "Tasks in the container (pids.current).", "",
           MetricType::Gauge, 1, [](const ContainerView& c) { return c.stats.pids.current; }},
    Column{"flightrec_container_pids_limit",
           "The container's task limit (pids.max); absent when unlimited.", "", MetricType::Gauge,
           1, [](const ContainerView& c) { return c.stats.pids.max; }},
};

// The per-container families with a label of their own beyond the container's.
void add_labelled(Families& out, const std::vector<const ContainerView*>& exported,
                  const std::vector<Labels>& labels) {
  FamilyBuilder refaults("flightrec_container_memory_workingset_refaults_total",
                         "Evicted pages of the container that were needed back (memory.stat "
                         "workingset_refault_anon, _file; Linux 5.9+).",
                         MetricType::Counter);
  FamilyBuilder events("flightrec_container_memory_events_total",
                       "The container's memory events (memory.events: low, high, max, oom, "
                       "oom_kill; v1 max from memory.failcnt, oom_kill from memory.oom_control).",
                       MetricType::Counter);
  FamilyBuilder io_bytes("flightrec_container_io_bytes_total",
                         "Bytes the container read, wrote and discarded, per block device "
                         "(io.stat; v1 blkio.throttle.io_service_bytes_recursive).",
                         MetricType::Counter);
  FamilyBuilder io_ops("flightrec_container_io_operations_total",
                       "I/O operations of the container per block device (io.stat; v1 "
                       "blkio.throttle.io_serviced_recursive).",
                       MetricType::Counter);
  const auto with = [](Labels l, std::string name, std::string value) {
    l.push_back({std::move(name), std::move(value)});
    return l;
  };
  for (size_t i = 0; i < exported.size(); ++i) {
    const auto& memory = exported[i]->stats.memory;
    refaults.sample(with(labels[i], "type", "anon"), memory.stat.workingset_refault_anon, 1);
    refaults.sample(with(labels[i], "type", "file"), memory.stat.workingset_refault_file, 1);
    for (const auto& [event, value] : {std::pair{"low", memory.events.low},
                                       {"high", memory.events.high},
                                       {"max", memory.events.max},
                                       {"oom", memory.events.oom},
                                       {"oom_kill", memory.events.oom_kill}}) {
      events.sample(with(labels[i], "event", event), value, 1);
    }
  }
  for (size_t i = 0; i < exported.size(); ++i) {
    const auto& io = exported[i]->stats.io;
    for (size_t d = 0; d < io.count; ++d) {
      const auto& device = io.devices[d];
      const Labels on = with(labels[i], "device",
                             std::to_string(device.major) + ":" + std::to_string(device.minor));
      for (const auto& [operation, bytes, ops] :
           {std::tuple{"read", device.read_bytes, device.read_ios},
            {"write", device.write_bytes, device.write_ios},
            {"discard", device.discard_bytes, device.discard_ios}}) {
        io_bytes.sample(with(on, "operation", operation), bytes, 1);
        io_ops.sample(with(on, "operation", operation), ops, 1);
      }
    }
  }
  refaults.add_to(out, "");
  events.add_to(out, "");
  io_bytes.add_to(out, "bytes");
  io_ops.add_to(out, "");
}

// cAdvisor's pressure families: "waiting" is PSI's some (at least one task stalled), "stalled"
// its full (every task stalled).
void add_pressure(Families& out, const std::vector<const ContainerView*>& exported,
                  const std::vector<Labels>& labels) {
  using Pressure = container::Pressure;
  for (const auto& [resource, pressure] : {std::pair{"cpu", &container::CgroupStats::cpu_pressure},
                                           {"memory", &container::CgroupStats::memory_pressure},
                                           {"io", &container::CgroupStats::io_pressure}}) {
    for (const auto& [kind, field, line, who] :
         {std::tuple{"waiting", &Pressure::some_us, "some",
                     "at least one of the container's tasks"},
          {"stalled", &Pressure::full_us, "full", "all of the container's tasks"}}) {
      const std::string file = std::string(resource) + ".pressure";
      FamilyBuilder family(
          std::string("flightrec_container_pressure_") + resource + "_" + kind + "_seconds_total",
          std::string("Time ") + who + " stalled on " + resource + " (" + file + " " + line +
              " total; on a v1 host from unified/).",
          MetricType::Counter);
      for (size_t i = 0; i < exported.size(); ++i) {
        family.sample(labels[i], exported[i]->stats.*pressure.*field, kMicrosecondsPerSecond);
      }
      family.add_to(out, "seconds");
    }
  }
}

// The container's labels (recorder/containers/container_labels.h). Values are written as read:
// the exposition makes them valid text.
Labels labels_of(const ContainerView& view) {
  Labels labels;
  for (auto& label : recorder::containers::container_labels(*view.info)) {
    labels.push_back({std::string(label.name), std::move(label.value)});
  }
  return labels;
}

}  // namespace

void ContainerCollector::collect(Families& out) const {
  const auto snapshot = tier_.snapshot();
  std::vector<size_t> chosen =
      containers_to_export(*snapshot, top_n_.load(std::memory_order_relaxed));
  std::sort(chosen.begin(), chosen.end());  // in path order, as cAdvisor lists them
  std::vector<const ContainerView*> exported;
  std::vector<Labels> labels;
  for (size_t i : chosen) {
    exported.push_back(&snapshot->containers[i]);
    labels.push_back(labels_of(snapshot->containers[i]));
  }
  for (const Column& column : kColumns) {
    FamilyBuilder family(column.name, column.help, column.type);
    for (size_t i = 0; i < exported.size(); ++i) {
      family.sample(labels[i], column.field(*exported[i]), column.per_unit);
    }
    family.add_to(out, column.unit);
  }
  FamilyBuilder throttled_max(
      "flightrec_container_cpu_throttled_ratio_max",
      "The largest throttled share of one CFS period over the export window: throttled time "
      "(added over the container's CPUs) per period time, each period resolved by the fast "
      "tier's reads.",
      MetricType::Gauge);
  for (size_t i = 0; i < exported.size(); ++i) {
    if (const auto max = exported[i]->signals.throttled_share_max) {
      throttled_max.sample(labels[i], *max);
    }
  }
  throttled_max.add_to(out, "");
  FamilyBuilder memory_max("flightrec_container_memory_usage_max_bytes",
                           "The largest memory usage read over the export window, the fast tier's "
                           "reads of a container near its limit included.",
                           MetricType::Gauge);
  for (size_t i = 0; i < exported.size(); ++i) {
    if (const auto max = exported[i]->signals.memory_usage_max) {
      memory_max.sample(labels[i], *max);
    }
  }
  memory_max.add_to(out, "bytes");
  add_labelled(out, exported, labels);
  add_pressure(out, exported, labels);
  collect_tier(out, *snapshot, exported.size());
}

void ContainerCollector::collect_tier(Families& out,
                                      const recorder::containers::ContainerTierSnapshot& snapshot,
                                      size_t exported) const {
  const auto& stats = tier_.stats();
  for (const auto& [state, count] : {std::pair{"tracked", snapshot.containers.size()},
                                     {"untracked", snapshot.untracked},
                                     {"exported", exported}}) {
    out.gauge("flightrec_containers",
              "Containers the container tier tracks, found beyond containers.max (untracked), "
              "and exported here (export.top_containers).",
              "", as_double(count), {{"state", state}});
  }
  out.gauge("flightrec_container_tier_cgroup_info",
            "The cgroup layout the container tier reads: unified (v2) or hybrid (v1); always 1.",
            "", 1, {{"mode", std::string(container::mode_name(snapshot.mode))}});
  for (const auto& [tier, rounds] : {std::pair{"slow", stats.slow_rounds_total.load()},
                                     {"fast", stats.fast_rounds_total.load()}}) {
    out.counter("flightrec_container_tier_rounds_total",
                "Rounds of the container tier: slow (every container, containers.rate) and fast "
                "(the fast tier, containers.fast_rate).",
                "", as_double(rounds), {{"tier", tier}});
  }
  for (const auto& [tier, reads] : {std::pair{"slow", stats.slow_reads_total.load()},
                                    {"fast", stats.fast_reads_total.load()}}) {
    out.counter("flightrec_container_tier_reads_total", "Container reads, by tier.", "",
                as_double(reads), {{"tier", tier}});
  }
  out.counter("flightrec_container_tier_full_reads_total",
              "Slow-round reads that took every file of a container, not only its counters "
              "(containers.detail_rate; the fast tier's, near-limit and new ones every round).",
              "", as_double(stats.full_reads_total.load()));
  for (const auto& [tier, ns] : {std::pair{"slow", stats.slow_read_cpu_ns_total.load()},
                                 {"fast", stats.fast_read_cpu_ns_total.load()}}) {
    out.counter("flightrec_container_tier_read_cpu_seconds_total",
                "CPU time the container tier's thread spent reading containers, by tier.",
                "seconds", seconds(ns), {{"tier", tier}});
  }
  out.counter("flightrec_container_tier_read_failures_total",
              "Container reads in which a file could not be read or parsed (a container "
              "removed between two walks included).",
              "", as_double(stats.read_failures_total.load()));
  out.counter("flightrec_container_tier_late_ticks_total",
              "Container-tier wake-ups that came more than a tick (containers.fast_rate) after "
              "they were due.",
              "", as_double(stats.late_ticks_total.load()));
  out.gauge("flightrec_container_tier_discovery_duration_seconds",
            "How long the newest walk of the cgroup hierarchy took.", "seconds",
            seconds(stats.last_discovery_ns.load()));
  out.counter("flightrec_container_tier_discovery_failures_total",
              "Walks of the cgroup hierarchy that failed (its root could not be listed).", "",
              as_double(stats.discovery_failures_total.load()));
  if (const auto names = tier_.name_stats()) {
    out.gauge("flightrec_container_names_known",
              "Containers the node's files name, those kept only by the grace period included.", "",
              as_double(names->containers));
    out.counter("flightrec_container_names_problems_total",
                "Name files and entries that could not be used (unreadable, malformed, over a "
                "bound); each is logged once.",
                "", as_double(names->problems));
  }
}

}  // namespace flightrec::exporter::metrics
