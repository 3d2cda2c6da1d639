// The key table itself: one row per config key. See schema.h for how to add one.
#include <array>

#include "flightrec/config/schema.h"

namespace flightrec::config {
namespace {

using namespace std::chrono_literals;

constexpr std::array<std::string_view, 4> kLogLevels{"debug", "info", "warn", "error"};
constexpr std::array<std::string_view, 4> kNetworkBackends{"auto", "ebpf", "sock_diag", "off"};
constexpr uint64_t kMiB = 1ull << 20;
constexpr uint64_t kGiB = 1ull << 30;

// The per-source rows differ only in the member they reach; these build their accessors.
template <SourceToggle Config::Sources::*source>
bool& toggle_enabled(Config& config) {
  return (config.sources.*source).enabled;
}
template <KeyedSource Config::Sources::*source>
bool& keyed_enabled(Config& config) {
  return (config.sources.*source).enabled;
}
template <SourceToggle Config::Sources::*source>
Duration& toggle_rate(Config& config) {
  return (config.sources.*source).rate;
}
template <KeyedSource Config::Sources::*source>
Duration& keyed_rate(Config& config) {
  return (config.sources.*source).rate;
}
template <KeyedSource Config::Sources::*source>
std::string& keyed_include(Config& config) {
  return (config.sources.*source).filter.include;
}
template <KeyedSource Config::Sources::*source>
std::string& keyed_exclude(Config& config) {
  return (config.sources.*source).filter.exclude;
}
template <KeyedSource Config::Sources::*source>
uint32_t& keyed_max_keys(Config& config) {
  return (config.sources.*source).max_keys;
}

// One row per key: a table, not logic, so its length is the number of keys.
const std::vector<KeySpec>& table() {  // NOLINT(readability-function-size)
  using S = Config::Sources;
  static const std::vector<KeySpec> keys{
      {"sampler.rate",
       DurationRule{[](Config& c) -> Duration& { return c.sampler.rate; }, 100us, 10s},
       "The tick: how often a frame of every system-wide series is recorded. Each source under "
       "`sources` is read at its own `rate`, rounded to a whole number of ticks; between two "
       "reads its series repeat their last values."},
      {"sampler.process_rate",
       DurationRule{[](Config& c) -> Duration& { return c.sampler.process_rate; }, 100us, 60s,
                    "sampler.rate"},
       "How often per-process sources (`/proc/<pid>/*`) are read. Slower than `sampler.rate` "
       "because "
       "each process costs about 5us per read."},
      {"sampler.realtime", BoolRule{[](Config& c) -> bool& { return c.sampler.realtime; }},
       "Run the sampler thread (only it) SCHED_FIFO at priority 10 so busy CPUs cannot delay its "
       "ticks. Needs CAP_SYS_NICE (or RLIMIT_RTPRIO >= 10); without it a warning names what is "
       "missing and the sampler runs at normal priority. `flightrec_sampler_realtime` shows "
       "which."},
      {"sampler.cpu_budget",
       PercentRule{[](Config& c) -> uint32_t& { return c.sampler.cpu_budget_ppm; }, 1'000,
                   4'000'000, true},
       "The daemon's CPU time, as a share of one core over 10 s, above which the sampler halves "
       "the read rate of its costliest source (one source a window, never slower than 1s) and "
       "restores them once well under; each change is logged, counted in /metrics and kept in "
       "recordings (`sampler.rate_changes`). docs/PERFORMANCE.md \"CPU budget\"."},
      {"buffer.duration",
       DurationRule{[](Config& c) -> Duration& { return c.buffer.duration; }, 1s, 24h},
       "History kept in the in-memory ring; older data is dropped first."},
      {"buffer.max_bytes",
       SizeRule{[](Config& c) -> uint64_t& { return c.buffer.max_bytes; }, kMiB, 64 * kGiB},
       "Upper bound on the ring's compressed size; when reached, the oldest data is dropped even "
       "if it is younger than `buffer.duration`."},
      {"sources.stat.enabled", BoolRule{toggle_enabled<&S::stat>},
       "Read `/proc/stat`: CPU times, context switches, forks."},
      {"sources.stat.rate", DurationRule{toggle_rate<&S::stat>, 100us, 10s},
       "How often `/proc/stat` is read. Its CPU times move once per scheduler tick (4 ms at "
       "HZ=250); per-CPU busy is derived over 100 ms, the machine's total comes from "
       "`cgroup_cpu` at every tick."},
      {"sources.cgroup_cpu.enabled", BoolRule{toggle_enabled<&S::cgroup_cpu>},
       "Read `cpu.stat` of the root cgroup v2: CPU usage in microseconds."},
      {"sources.cgroup_cpu.rate", DurationRule{toggle_rate<&S::cgroup_cpu>, 100us, 10s},
       "How often `cpu.stat` is read. The root cgroup's usage moves once per scheduler tick."},
      {"sources.meminfo.enabled", BoolRule{toggle_enabled<&S::meminfo>}, "Read `/proc/meminfo`."},
      {"sources.meminfo.rate", DurationRule{toggle_rate<&S::meminfo>, 100us, 10s},
       "How often `/proc/meminfo` is read."},
      {"sources.loadavg.enabled", BoolRule{toggle_enabled<&S::loadavg>}, "Read `/proc/loadavg`."},
      {"sources.loadavg.rate", DurationRule{toggle_rate<&S::loadavg>, 100us, 10s},
       "How often `/proc/loadavg` is read: its averages move every 5 s, its running-task count "
       "at any time."},
      {"sources.pressure.enabled", BoolRule{toggle_enabled<&S::pressure>},
       "Read `/proc/pressure/{cpu,memory,io}`: pressure stall totals in microseconds."},
      {"sources.pressure.rate", DurationRule{toggle_rate<&S::pressure>, 100us, 10s},
       "How often the three pressure files are read."},
      {"sources.vmstat.enabled", BoolRule{toggle_enabled<&S::vmstat>},
       "Read selected counters of `/proc/vmstat`."},
      {"sources.vmstat.rate", DurationRule{toggle_rate<&S::vmstat>, 100us, 10s},
       "How often `/proc/vmstat` is read: the costliest file to read and parse."},
      {"sources.diskstats.enabled", BoolRule{keyed_enabled<&S::diskstats>},
       "Read `/proc/diskstats`."},
      {"sources.diskstats.rate", DurationRule{keyed_rate<&S::diskstats>, 100us, 10s},
       "How often `/proc/diskstats` is read."},
      {"sources.diskstats.include", RegexRule{keyed_include<&S::diskstats>},
       "Keep only disks whose name matches (empty: every disk)."},
      {"sources.diskstats.exclude", RegexRule{keyed_exclude<&S::diskstats>},
       "Drop disks whose name matches (empty: none). The default is node_exporter's: partitions, "
       "RAM, loop and floppy devices."},
      {"sources.diskstats.max_keys", CountRule{keyed_max_keys<&S::diskstats>, 1, 1024},
       "Most disks recorded, counting disks that appear after start-up."},
      {"sources.netdev.enabled", BoolRule{keyed_enabled<&S::netdev>}, "Read `/proc/net/dev`."},
      {"sources.netdev.rate", DurationRule{keyed_rate<&S::netdev>, 100us, 10s},
       "How often `/proc/net/dev` is read."},
      {"sources.netdev.include", RegexRule{keyed_include<&S::netdev>},
       "Keep only interfaces whose name matches (empty: every interface)."},
      {"sources.netdev.exclude", RegexRule{keyed_exclude<&S::netdev>},
       "Drop interfaces whose name matches (empty: none, as in node_exporter)."},
      {"sources.netdev.max_keys", CountRule{keyed_max_keys<&S::netdev>, 1, 1024},
       "Most interfaces recorded, counting interfaces that appear after start-up."},
      {"processes.enabled", BoolRule{[](Config& c) -> bool& { return c.processes.enabled; }},
       "Run the process tier: every process's CPU, memory, I/O, cgroup and network at "
       "`sampler.process_rate`."},
      {"processes.redact_cmdline",
       RegexRule{[](Config& c) -> std::string& { return c.processes.redact_cmdline; }},
       "Every match of this regex in a command line is replaced by `<redacted>` before it is "
       "recorded, exported or written to an incident (empty: record command lines as they are). "
       "The default hides values given to password, token, secret and API-key arguments."},
      {"processes.max_count",
       CountRule{[](Config& c) -> uint32_t& { return c.processes.max_count; }, 1, 131072},
       "Most processes recorded per process tick (lowest PIDs first); the rest are counted in "
       "`flightrec_process_tier_dropped_total`."},
      {"processes.sockets_rate",
       DurationRule{[](Config& c) -> Duration& { return c.processes.sockets_rate; }, 100us, 60s},
       "How often the socket tables (the Connections and Listening tabs) are read, rounded to "
       "whole process ticks (at least one); frames in between repeat the last table. Each read "
       "walks the "
       "kernel's TCP hash table and every process's file descriptors. With `network.backend: "
       "sock_diag` the table comes with every traffic read instead."},
      {"processes.short_lived",
       BoolRule{[](Config& c) -> bool& { return c.processes.short_lived; }},
       "Also record processes that start and exit between two process ticks, from the kernel's "
       "report of each exit (an eBPF program on sched_process_exit; needs CAP_BPF and "
       "CAP_PERFMON). They appear once, marked exited, with their CPU totals and peak RSS."},
      {"network.backend",
       ChoiceRule{[](Config& c) -> std::string& { return c.network.backend; }, kNetworkBackends},
       "How per-process traffic is counted: `ebpf` (socket-layer BPF programs, needs CAP_BPF and "
       "CAP_PERFMON), `sock_diag` (TCP byte counters of each socket via netlink, no UDP), `auto` "
       "(eBPF when it loads, else sock_diag) or `off`."},
      {"export.window",
       DurationRule{[](Config& c) -> Duration& { return c.export_.window; }, 1s, 1h},
       "Span of the sliding min/max/mean aggregates in `/metrics`: each scrape sees the window "
       "ending at that scrape. Match it to the scrape interval."},
      {"export.top_processes",
       CountRule{[](Config& c) -> uint32_t& { return c.export_.top_processes; }, 0, 1000},
       "Processes exported per ranking (CPU, memory, network) in `/metrics`, labelled pid and "
       "comm; 0 exports none. Bounds the label set: PIDs are never exported unbounded."},
      {"incidents.dir", PathRule{[](Config& c) -> std::string& { return c.incidents.dir; }},
       "Directory incident files are written to (see docs/TRIGGERS.md). When it cannot be "
       "created, `./incidents` is used instead and a warning is logged."},
      {"incidents.max_count",
       CountRule{[](Config& c) -> uint32_t& { return c.incidents.max_count; }, 1, 100000},
       "Most incident files kept; the oldest are deleted first."},
      {"incidents.max_bytes",
       SizeRule{[](Config& c) -> uint64_t& { return c.incidents.max_bytes; }, kMiB, 1024 * kGiB},
       "Most bytes of incident files kept; the oldest are deleted first."},
      {"web.listen_address",
       ListenAddressRule{[](Config& c) -> std::string& { return c.web.listen_address; }},
       "Address of the HTTP server (`/metrics`, `/dump`, ...). Use `0.0.0.0:9717` or `[::]:9717` "
       "to "
       "listen on every interface; port 0 picks a free port."},
      {"web.max_dump_bytes",
       SizeRule{[](Config& c) -> uint64_t& { return c.web.max_dump_bytes; }, kMiB, 64 * kGiB},
       "Largest answer `/dump` gives: a request whose estimated size is larger is refused with 413 "
       "(narrow it with `from`/`to`)."},
      {"log.level", ChoiceRule{[](Config& c) -> std::string& { return c.log.level; }, kLogLevels},
       "Lowest level of the log lines written to stderr."},
  };
  return keys;
}

}  // namespace

std::span<const KeySpec> schema() { return table(); }

const KeySpec* find_key(std::string_view path) {
  for (const KeySpec& key : table()) {
    if (key.path == path) return &key;
  }
  return nullptr;
}

}  // namespace flightrec::config
