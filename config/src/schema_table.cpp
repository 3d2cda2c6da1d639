// The key table itself: one row per config key. See schema.h for how to add one.
#include <array>
#include <deque>

#include "flightrec/config/schema.h"

namespace flightrec::config {
namespace {

using namespace std::chrono_literals;

constexpr std::array<std::string_view, 4> kLogLevels{"debug", "info", "warn", "error"};
constexpr std::array<std::string_view, 4> kNetworkBackends{"auto", "ebpf", "sock_diag", "off"};
constexpr std::array<std::string_view, 2> kThrottleEpisodes{"auto", "off"};
constexpr std::array<std::string_view, 3> kProcessBackends{"auto", "ebpf", "procfs"};
constexpr std::array<std::string_view, 3> kSamplerBackends{"auto", "ebpf", "procfs"};
constexpr uint64_t kMiB = 1ull << 20;
constexpr uint64_t kGiB = 1ull << 30;

// Paths of the generated rows: a deque, so the views KeySpec keeps stay valid as it grows.
std::deque<std::string>& generated_paths() {
  static std::deque<std::string> paths;
  return paths;
}

std::string_view own_path(const std::string& source, std::string_view field) {
  return generated_paths().emplace_back("sources." + source + "." + std::string(field));
}

// `sources.<name>.*` for every source the embedded defaults declare: each source's rows differ only
// in the source they reach, and keyed sources (those with `max_keys`) have three more.
void append_source_rows(std::vector<KeySpec>& keys) {
  for (const auto& [source_name, defaults] : default_source_settings()) {
    // Copied into the accessor: clang before 16 cannot capture a structured binding.
    const std::string& name = source_name;
    auto source = [name](Config& c) -> SourceSettings& { return c.sources.at(name); };
    keys.push_back({own_path(name, "enabled"),
                    BoolRule{[source](Config& c) -> bool& { return source(c).enabled; }},
                    "Read this source. docs/SOURCES.md says what each one reads and records.",
                    "sources.<name>.enabled"});
    keys.push_back(
        {own_path(name, "rate"),
         DurationRule{[source](Config& c) -> Duration& { return source(c).rate; }, 100us, 10s},
         "How often the source is read, rounded to a whole number of `sampler.rate` ticks; "
         "between two reads its series repeat their last values. The defaults follow how often "
         "each file's numbers change and what a read costs (docs/PERFORMANCE.md).",
         "sources.<name>.rate"});
    if (!defaults.keys) continue;
    auto keys_of = [source](Config& c) -> KeySelection& { return *source(c).keys; };
    keys.push_back(
        {own_path(name, "include"),
         RegexRule{[keys_of](Config& c) -> std::string& { return keys_of(c).filter.include; }},
         "Keyed sources only: keep only the disks or interfaces whose name matches (empty: all).",
         "sources.<name>.include"});
    keys.push_back({own_path(name, "exclude"), RegexRule{[keys_of](Config& c) -> std::string& {
                      return keys_of(c).filter.exclude;
                    }},
                    "Keyed sources only: drop the names that match (empty: none). The defaults are "
                    "node_exporter's: for disks, partitions, RAM, loop and floppy devices.",
                    "sources.<name>.exclude"});
    keys.push_back(
        {own_path(name, "max_keys"),
         CountRule{[keys_of](Config& c) -> uint32_t& { return keys_of(c).max_keys; }, 1, 1024},
         "Keyed sources only: most names recorded, counting names that appear after start-up.",
         "sources.<name>.max_keys"});
  }
}

// The rows before `sources`, in the order of the docs and the defaults file: a table, not logic.
std::vector<KeySpec> sampler_and_buffer_keys() {
  return {
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
      {"sampler.backend",
       ChoiceRule{[](Config& c) -> std::string& { return c.sampler.backend; }, kSamplerBackends},
       "Where the ticks come from: `ebpf` (a BPF program on a kernel timer records the CPU times, "
       "context switches and run queues at every tick; the sampler thread wakes only at its "
       "fastest file source's rate to hand the ticks on and read the other sources; needs "
       "CAP_BPF and CAP_PERFMON), `procfs` (the sampler thread's own timer wakes it every tick "
       "and it reads every source from its file) or `auto` (eBPF when it loads, passes its "
       "check against /proc/stat and the machine has at most 16 CPUs, where it costs less than "
       "the timer; else procfs). docs/SOURCES.md \"Backends\"."},
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
  };
}

// The rows after `sources`: a table, not logic, so its length is the number of keys.
std::vector<KeySpec> keys_after_sources() {  // NOLINT(readability-function-size)
  return {
      {"processes.enabled", BoolRule{[](Config& c) -> bool& { return c.processes.enabled; }},
       "Run the process tier: every process's CPU, memory, I/O, cgroup and network at "
       "`sampler.process_rate`."},
      {"processes.backend",
       ChoiceRule{[](Config& c) -> std::string& { return c.processes.backend; }, kProcessBackends},
       "How every process's counters are read each tick: `ebpf` (one read of a BPF task iterator "
       "for all processes, needs CAP_BPF and CAP_PERFMON), `procfs` (`/proc/<pid>/stat` and `io` "
       "of each process) or `auto` (eBPF when it loads, else procfs). Command lines and cgroups "
       "come from `/proc` either way, once per process."},
      {"processes.redact_cmdline",
       RegexRule{[](Config& c) -> std::string& { return c.processes.redact_cmdline; }},
       "Every match of this regex in a command line is replaced by `<redacted>` before it is "
       "recorded, exported, written to an incident or to a `flightrec snapshot` (empty: record "
       "command lines as they are). "
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
      {"containers.enabled", BoolRule{[](Config& c) -> bool& { return c.containers.enabled; }},
       "Run the container tier: each container's cgroup (CPU, throttling, memory, I/O, pids, "
       "pressure) read at `containers.rate`, the ones that matter now at `containers.fast_rate` "
       "(docs/CONTAINERS.md). The cgroup hierarchy is the one under `--path.cgroupfs`; without "
       "one the tier is off, with one log line saying why."},
      {"containers.rate",
       DurationRule{[](Config& c) -> Duration& { return c.containers.rate; }, 1ms, 60s,
                    "containers.fast_rate"},
       "How often every tracked container is read: the slow tier. Each read of a container is a "
       "dozen small files (docs/CONTAINERS.md \"How often each container is read\")."},
      {"containers.fast_rate",
       DurationRule{[](Config& c) -> Duration& { return c.containers.fast_rate; }, 1ms, 10s},
       "How often the fast tier's containers are read: at 10ms each 100 ms CFS period is seen in "
       "ten slices, so a throttle that a 15 s average hides shows as the share of the period it "
       "took."},
      {"containers.fast_max",
       CountRule{[](Config& c) -> uint32_t& { return c.containers.fast_max; }, 0, 256},
       "Most containers in the fast tier, chosen at each slow round: the ones throttled in the "
       "last round, then those using over 90 % of their memory limit, then the busiest. 0: no "
       "fast tier."},
      {"containers.detail_rate",
       DurationRule{[](Config& c) -> Duration& { return c.containers.detail_rate; }, 1ms, 1h,
                    "containers.rate"},
       "How often each container's slower files are read: its limits, `memory.stat`, I/O, pids, "
       "`cpuacct.stat` and PSI. The slow rounds between read only the CPU counters, the memory "
       "usage and the limit-breach events; a container in the fast tier, near its memory limit "
       "or with a new memory event has every file read at each slow round."},
      {"containers.discovery_interval",
       DurationRule{[](Config& c) -> Duration& { return c.containers.discovery_interval; }, 100ms,
                    1h},
       "How often the cgroup hierarchy is walked for containers that came or went."},
      {"containers.max",
       CountRule{[](Config& c) -> uint32_t& { return c.containers.max; }, 1, 65536},
       "Most containers tracked at once; the ones found beyond it are counted "
       "(`flightrec_containers{state=\"untracked\"}`) and wait for a place."},
      {"containers.throttle_episodes",
       ChoiceRule{[](Config& c) -> std::string& { return c.containers.throttle_episodes; },
                  kThrottleEpisodes},
       "Record each CFS throttling episode of the tracked containers as the kernel timed it (an "
       "eBPF program at each context switch; needs CAP_BPF, CAP_PERFMON and kernel BTF): `auto` "
       "loads it when permitted and otherwise says why once, `off` never does. Without it the "
       "container frames hold the fast tier's cpu.stat reads only (docs/CONTAINERS.md "
       "\"Throttling episodes\")."},
      {"containers.match.runtimes",
       BoolRule{[](Config& c) -> bool& { return c.containers.match.runtimes; }},
       "Track the containers of Docker, containerd, CRI-O and Podman outside Kubernetes "
       "(`docker-<id>.scope`, `/docker/<id>`, `libpod-<id>.scope`, ...)."},
      {"containers.match.kubepods",
       BoolRule{[](Config& c) -> bool& { return c.containers.match.kubepods; }},
       "Track the containers of Kubernetes pods (under `kubepods`), whichever runtime made them, "
       "the bare ids of the kubelet's cgroupfs driver included."},
      {"containers.match.systemd_services",
       BoolRule{[](Config& c) -> bool& { return c.containers.match.systemd_services; }},
       "Also track each systemd service (`/system.slice/<name>.service`) as a container: on a host "
       "without containers, the units worth watching one by one."},
      {"containers.match.path_regex",
       RegexRule{[](Config& c) -> std::string& { return c.containers.match.path_regex; }},
       "Also track the cgroups whose path (as `/proc/<pid>/cgroup` shows it, e.g. "
       "`/machine.slice/qemu-1.scope`) this regex matches, searched anywhere in the path "
       "(empty: none). Asked only of the paths the rules above do not take."},
      {"containers.names.enabled",
       BoolRule{[](Config& c) -> bool& { return c.containers.names.enabled; }},
       "Name containers (namespace, pod, container, name, image) from the node's files below; "
       "`false` leaves those labels empty and reads none of them (Docker's and the OCI "
       "`config.json` files hold the containers' environments)."},
      {"containers.names.root",
       PathRule{[](Config& c) -> std::string& { return c.containers.names.root; }},
       "Every path below is read under this directory: a daemon in a container reads the host's "
       "files mounted under `/host`."},
      {"containers.names.kubelet_logs",
       PathRule{[](Config& c) -> std::string& { return c.containers.names.kubelet_logs; }},
       "The kubelet's log directory: the names of `containers/` and `pods/` beneath it give each "
       "container's namespace, pod and name."},
      {"containers.names.docker_root",
       PathRule{[](Config& c) -> std::string& { return c.containers.names.docker_root; }},
       "Docker's `data-root`: `containers/<id>/config.v2.json` gives a container's name, image and "
       "Kubernetes labels."},
      {"containers.names.storage_root",
       PathRule{[](Config& c) -> std::string& { return c.containers.names.storage_root; }},
       "The `graphroot` of containers/storage (Podman, CRI-O): its "
       "`overlay-containers/containers.json` names containers and their images. A rootless "
       "Podman's is `~/.local/share/containers/storage`."},
      {"containers.names.storage_run_root",
       PathRule{[](Config& c) -> std::string& { return c.containers.names.storage_run_root; }},
       "The `runroot` of containers/storage, where a transient store keeps its "
       "`overlay-containers/` lists."},
      {"containers.names.containerd_state",
       PathRule{[](Config& c) -> std::string& { return c.containers.names.containerd_state; }},
       "containerd's `state` directory: the CRI plugin's running tasks "
       "(`io.containerd.runtime.v2.task/k8s.io/<id>/config.json`) name Kubernetes containers and "
       "their images. k3s: `/run/k3s/containerd`."},
      {"containers.names.rescan_interval",
       DurationRule{[](Config& c) -> Duration& { return c.containers.names.rescan_interval; }, 1s,
                    1h},
       "How often each name source is looked at for changes (one `stat`; read again only when it "
       "changed). A container no source knows yet makes them be looked at within a second."},
      {"containers.names.grace_period",
       DurationRule{[](Config& c) -> Duration& { return c.containers.names.grace_period; }, 0s,
                    24h},
       "How long a container's names are kept after every source lost it, so a container that "
       "exited (or was OOM-killed) is still named in what was recorded before."},
      {"export.window",
       DurationRule{[](Config& c) -> Duration& { return c.export_.window; }, 1s, 1h},
       "Span of the sliding min/max/mean aggregates in `/metrics`: each scrape sees the window "
       "ending at that scrape. Match it to the scrape interval."},
      {"export.top_processes",
       CountRule{[](Config& c) -> uint32_t& { return c.export_.top_processes; }, 0, 1000},
       "Processes exported per ranking (CPU, memory, network) in `/metrics`, labelled pid and "
       "comm; 0 exports none. Bounds the label set: PIDs are never exported unbounded."},
      {"export.top_containers",
       CountRule{[](Config& c) -> uint32_t& { return c.export_.top_containers; }, 0, 10000},
       "Containers exported in `/metrics`: the throttled ones first, then by CPU; 0 exports none. "
       "Bounds the label set; `flightrec_containers{state}` counts those tracked, untracked and "
       "exported."},
      {"incidents.dir", PathRule{[](Config& c) -> std::string& { return c.incidents.dir; }},
       "Directory incident files are written to (see docs/TRIGGERS.md). When it cannot be "
       "created, `./incidents` is used instead and a warning is logged."},
      {"incidents.max_count",
       CountRule{[](Config& c) -> uint32_t& { return c.incidents.max_count; }, 1, 100000},
       "Most incident files kept; the oldest are deleted first (manual ones before rule-fired "
       "ones)."},
      {"incidents.max_bytes",
       SizeRule{[](Config& c) -> uint64_t& { return c.incidents.max_bytes; }, kMiB, 1024 * kGiB},
       "Most bytes of incident files kept; the oldest are deleted first (manual ones before "
       "rule-fired ones)."},
      {"incidents.manual_interval",
       DurationRule{[](Config& c) -> Duration& { return c.incidents.manual_interval; }, 0s, 24h},
       "Least time between two manual incidents (`POST /-/trigger`): a request sooner is refused "
       "with 429 and `Retry-After`, and one while a manual incident is still pending joins it. "
       "Retention never deletes a rule-fired incident to make room for a manual one. 0: no "
       "limit."},
      {"incidents.capture_oom_kills",
       BoolRule{[](Config& c) -> bool& { return c.incidents.capture_oom_kills; }},
       "Every OOM kill (system or cgroup: the kernel's `oom_kill` count in `/proc/vmstat` moves) "
       "fires an incident of the built-in rule `oom_kill`: the whole buffer before the kill, 5 s "
       "after. A rule named `oom_kill` in `triggers:` replaces the built-in one "
       "(docs/TRIGGERS.md)."},
      {"incidents.alerts.match", AlertMatchRule{[](Config& c) -> std::vector<std::string>& {
         return c.incidents.alerts.match;
       }},
       "Which Alertmanager and Grafana alerts capture an incident (`POST /-/trigger/alertmanager`, "
       "`POST /-/trigger/grafana`): a list of label matcher sets in Alertmanager's syntax, e.g. "
       "`['{severity=\"critical\"}', '{instance=~\"web-.*\", team=\"db\"}']`. Matchers "
       "within a set must all hold (AND); an alert captures when any set holds (OR). `=`, `!=`, "
       "`=~`, `!~`; regexes are RE2 and match the whole value; a missing label reads as \"\". "
       "Values may name environment variables, `${NODE_NAME}` or `${NODE_NAME:-default}`, "
       "expanded at load and reload (in a regex, as a literal: dots match only dots); unset or "
       "empty is an error. One file then serves every node: "
       "`['{instance=~\"${NODE_NAME}(:[0-9]+)?\"}']`. "
       "No sets (`[]`): every alert captures. Alerts left out are counted, not captured "
       "(docs/TRIGGERS.md)."},
      {"incidents.alerts.pre",
       DurationRule{[](Config& c) -> Duration& { return c.incidents.alerts.pre; }, 0s, 24h},
       "Recording kept before an alert's `startsAt` (as far as the ring still holds it), which "
       "is when the alert went firing, after its rule's `for:`: cover that `for:` here."},
      {"incidents.alerts.post",
       DurationRule{[](Config& c) -> Duration& { return c.incidents.alerts.post; }, 0s, 1h},
       "Recording kept after an alert's `startsAt`; the incident is written once that much has "
       "passed (at once when it already has)."},
      {"incidents.alerts.max_extension",
       DurationRule{[](Config& c) -> Duration& { return c.incidents.alerts.max_extension; }, 0s,
                    1h},
       "How far an alert's end (`endsAt` of the resolved notification) may extend its incident's "
       "window past `startsAt` + `post`, with the recording the ring still holds; a resolved "
       "notification after the file was written rewrites it (docs/TRIGGERS.md). 0: the end is "
       "recorded, the window not extended."},
      {"web.listen_address",
       ListenAddressRule{[](Config& c) -> std::string& { return c.web.listen_address; }},
       "Address of the HTTP server (`/metrics`, `/dump`, ...). Use `0.0.0.0:9717` or `[::]:9717` "
       "to "
       "listen on every interface; port 0 picks a free port."},
      {"web.max_dump_bytes",
       SizeRule{[](Config& c) -> uint64_t& { return c.web.max_dump_bytes; }, kMiB, 64 * kGiB},
       "Largest answer `/dump` gives: a request whose estimated size is larger is refused with 413 "
       "(narrow it with `from`/`to`)."},
      {"web.roles",
       UserRolesRule{[](Config& c) -> std::map<std::string, RoleSet>& { return c.web.roles; }},
       "What each user of `--web.config.file`'s `basic_auth_users` may do: `metrics` (`/metrics`, "
       "`/`), `recordings` (`/dump`, `/incidents`, the viewer pages) and `actions` (`POST "
       "/-/trigger`, `POST /-/reload`). A user the map leaves out gets 403 on every route but the "
       "health endpoints; a user the web config lacks stops start-up. Empty: every authenticated "
       "user has every role, as node_exporter reads the same file. docs/SECURITY.md, \"Roles\"."},
      {"web.anonymous_roles",
       RoleListRule{[](Config& c) -> std::optional<RoleSet>& { return c.web.anonymous_roles; }},
       "What a client without credentials may do when no `basic_auth_users` are configured (with "
       "them it gets 401). `auto`: every role when `listen_address` is a loopback address, only "
       "`metrics` on any other, so history and actions are never open to the network by "
       "accident; the refused get 403 naming this key."},
      {"web.open_health", BoolRule{[](Config& c) -> bool& { return c.web.open_health; }},
       "`/-/healthy` and `/-/ready` answer every client, with or without credentials, for "
       "liveness and readiness probes; `false`: they need the `metrics` role like `/metrics`."},
      {"web.max_requests",
       CountRule{[](Config& c) -> uint32_t& { return c.web.max_requests; }, 0, 10000},
       "Most requests answered at once per route (`/metrics`, `/dump`, ...), like node_exporter's "
       "`--web.max-requests`: more get 503. Clients that ask and then read slowly hold a worker "
       "each; this keeps workers for the other routes (docs/SECURITY.md). 0: no limit."},
      {"log.level", ChoiceRule{[](Config& c) -> std::string& { return c.log.level; }, kLogLevels},
       "Lowest level of the log lines written to stderr."},
  };
}

const std::vector<KeySpec>& table() {
  static const std::vector<KeySpec> keys = [] {
    std::vector<KeySpec> all = sampler_and_buffer_keys();
    append_source_rows(all);
    for (KeySpec& key : keys_after_sources()) all.push_back(std::move(key));
    return all;
  }();
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
