#pragma once
// The whole configuration as typed values. Loading, validation and the embedded defaults live in
// loader.h and the key table in schema.h; every default here must equal the embedded defaults YAML
// (a test checks it).
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "flightrec/config/match_op.h"
#include "flightrec/config/roles.h"

namespace flightrec::config {

using Duration = std::chrono::nanoseconds;

// A regex pair selecting keys (disk or interface names): a key is kept when it matches `include`
// (empty: everything) and does not match `exclude` (empty: nothing).
struct KeyFilter {
  std::string include;
  std::string exclude;
  bool operator==(const KeyFilter&) const = default;
};

// One system source's settings, `sources.<name>` in YAML. Keyed sources record one series set per
// disk or interface and also choose which names to keep; `keys` is set exactly for them.
struct KeySelection {
  KeyFilter filter;
  uint32_t max_keys = 32;  // slots reserved for keys seen at start-up or appearing later
  bool operator==(const KeySelection&) const = default;
};

// `rate`: how often the source is read. Its information changes no faster than its step (CPU times
// move at the scheduler tick, load averages every 5 s), so reading it faster only costs CPU.
struct SourceSettings {
  bool enabled = true;
  Duration rate = std::chrono::milliseconds(1);
  std::optional<KeySelection> keys;
  bool operator==(const SourceSettings&) const = default;
};

// Every system source by name. The known names and their defaults are those of the `sources:`
// section of config/defaults.yaml: a new source is declared there, not here.
using SourceSettingsMap = std::map<std::string, SourceSettings, std::less<>>;

// The embedded defaults' `sources:` section, read once. The embedded file is part of the build and
// a test loads it, so a malformed section is a build defect: it throws std::logic_error.
[[nodiscard]] const SourceSettingsMap& default_source_settings();

// Which signal (or raw series) a trigger watches: `cpu_busy_ratio{cpu="total"}` is the name
// "cpu_busy_ratio" with one label matcher. Labels not named match anything, so a selector may
// match several series. Matched against the running host's signals at start-up, not here.
// How a selector's label matcher compares, PromQL's four: the value equal or not, a regex (RE2)
// that matches the whole value or not. A label a series lacks has the value "".
struct LabelMatcher {
  std::string name;
  MatchOp op = MatchOp::equal;
  std::string value;  // the text compared, or the regex
  bool operator==(const LabelMatcher&) const = default;
};

struct SignalSelector {
  std::string name;
  std::vector<LabelMatcher> labels;  // as written, in order
  bool operator==(const SignalSelector&) const = default;
};

enum class Comparison : uint8_t { greater, greater_equal, less, less_equal };

// One `triggers:` entry (docs/TRIGGERS.md). The `thresholds:` shorthand becomes rules like these.
struct TriggerRule {
  std::string name;
  std::string signal;  // the selector as written, for messages and incidents
  SignalSelector selector;
  Comparison op = Comparison::greater;
  double value = 0.0;
  Duration hold = Duration::zero();  // `for`: 0 means a single tick suffices
  // `over`: compare the signal's mean over this trailing window instead of each tick's value, so a
  // signal that dips on single ticks can still hold for `for` (unset: each tick's value).
  std::optional<Duration> over;
  std::optional<Duration> pre;                   // unset: the whole buffer
  Duration post = std::chrono::seconds(5);       // recorded after firing before the cut
  Duration cooldown = std::chrono::seconds(60);  // no second firing within this
  int line = 0;  // 1-based line of the rule in its file (0: not from a file), for start-up errors
  bool operator==(const TriggerRule&) const = default;
};

struct Config {
  struct Sampler {
    // Where the ticks come from: auto (the in-kernel tick when it loads, else procfs), ebpf or
    // procfs (the sampler thread's own timer, every source read from its file).
    std::string backend = "auto";
    // The scheduler tick of Debian's kernel (HZ=250): CPU times move no faster.
    Duration rate = std::chrono::milliseconds(4);
    Duration process_rate = std::chrono::milliseconds(250);
    bool realtime = true;  // SCHED_FIFO for the sampler thread when permitted
    // The daemon's CPU, in millionths of one core, above which the sampler slows its costliest
    // sources (sampler.cpu_budget, e.g. "10%"); 0 turns the budget off.
    uint32_t cpu_budget_ppm = 100'000;
    bool operator==(const Sampler&) const = default;
  } sampler;

  struct Buffer {
    Duration duration = std::chrono::minutes(10);
    uint64_t max_bytes = 256ull << 20;
    bool operator==(const Buffer&) const = default;
  } buffer;

  // Default rates measured on Debian 12's kernel (HZ=250): docs/PERFORMANCE.md, "Source steps".
  using Sources = SourceSettingsMap;
  Sources sources = default_source_settings();

  struct Processes {
    bool enabled = true;
    // How each tick reads every process's counters: auto (eBPF task iterator, else procfs),
    // ebpf or procfs.
    std::string backend = "auto";
    // RE2 regex; every match in a command line is replaced by "<redacted>" before it is
    // recorded. The default hides the values of password/token/secret-style arguments.
    std::string redact_cmdline =
        "((pass(word|wd)?|token|secret|api[-_]?key|credentials?)[=:]|--(pass(word|wd)?|token|"
        "secret|api[-_]?key)[= ])[^ ]+";
    uint32_t max_count = 8192;  // processes recorded per process tick; the rest are counted
    // How often the Connections and Listening tables are dumped (sock_diag and every process's
    // fds): the costliest part of the tier, and connections change slower than CPU shares.
    Duration sockets_rate = std::chrono::seconds(1);
    // Record processes that start and exit between two process ticks, from the kernel's exit
    // reports (eBPF).
    bool short_lived = true;
    bool operator==(const Processes&) const = default;
  } processes;

  struct Network {
    // Per-process traffic: auto (eBPF, else sock_diag), ebpf, sock_diag or off.
    std::string backend = "auto";
    bool operator==(const Network&) const = default;
  } network;

  // The container tier (docs/CONTAINERS.md): every container's cgroup read at `rate`, the few
  // that matter now at `fast_rate`. The cgroup root is --path.cgroupfs.
  struct Containers {
    bool enabled = true;
    // Every second, not every 100 ms: a full read of one container costs 60-80 us in the daemon, so
    // 300 containers at 100 ms took a fifth of a core (docs/CONTAINERS.md "Cost").
    Duration rate = std::chrono::seconds(1);
    // A 10 ms read sees each 100 ms CFS period in ten slices: the throttling inside one period.
    Duration fast_rate = std::chrono::milliseconds(10);
    uint32_t fast_max = 4;  // containers in the fast tier; 0: none
    // Every tenth slow round: a slow round's counters are a sixth of a full read's cost, and
    // memory.stat, I/O, pids, limits and PSI move slowly (docs/CONTAINERS.md "Cost").
    Duration detail_rate = std::chrono::seconds(10);
    Duration discovery_interval = std::chrono::seconds(1);
    uint32_t max = 1000;  // containers tracked at once; the rest are counted
    // The kernel's own CFS throttling episodes (eBPF): auto (when permitted) or off.
    std::string throttle_episodes = "auto";
    // What counts as a container (container_matcher.h's MatchSettings).
    struct Match {
      bool runtimes = true;           // Docker, containerd, CRI-O, Podman outside Kubernetes
      bool kubepods = true;           // the containers of Kubernetes pods
      bool systemd_services = false;  // /system.slice/<name>.service
      std::string path_regex;         // RE2 over the cgroup path; "" for none
      bool operator==(const Match&) const = default;
    } match;
    // Where names come from (names/name_settings.h): the runtimes' own directories, as their
    // configuration calls them, under `root`.
    struct Names {
      bool enabled = true;
      std::string root = "/";
      std::string kubelet_logs = "/var/log";  // containers/ and pods/ beneath
      std::string docker_root = "/var/lib/docker";
      std::string storage_root = "/var/lib/containers/storage";
      std::string storage_run_root = "/run/containers/storage";
      std::string containerd_state = "/run/containerd";
      Duration rescan_interval = std::chrono::seconds(10);
      Duration grace_period = std::chrono::minutes(10);
      bool operator==(const Names&) const = default;
    } names;
    bool operator==(const Containers&) const = default;
  } containers;

  struct Export {
    // Span of the sliding min/max/mean aggregates /metrics exposes.
    Duration window = std::chrono::seconds(15);
    uint32_t top_processes = 10;   // processes exported per ranking (CPU, memory, network)
    uint32_t top_containers = 20;  // containers exported in /metrics, the busiest first
    bool operator==(const Export&) const = default;
  } export_;

  struct Web {
    std::string listen_address = "127.0.0.1:9717";
    uint64_t max_dump_bytes = 256ull << 20;  // largest /dump answer, estimated before sending
    // What each user of the web config's basic_auth_users may do; empty: every authenticated
    // user has every role, as exporter-toolkit means its file (docs/SECURITY.md, "Roles").
    std::map<std::string, RoleSet> roles;
    // What a client without credentials may do when no basic_auth_users are configured. nullopt
    // ("auto"): every role on a loopback listen address, only metrics on any other.
    std::optional<RoleSet> anonymous_roles;
    // /-/healthy and /-/ready answer everyone, for probes; false: they need the metrics role.
    bool open_health = true;
    uint32_t max_requests = 40;  // requests in flight per route, more get 503; 0: no limit
    bool operator==(const Web&) const = default;
  } web;

  // Rules from `triggers:` followed by those of the `thresholds:` shorthand.
  std::vector<TriggerRule> triggers;

  struct Incidents {
    std::string dir = "/var/lib/flightrec/incidents";
    uint32_t max_count = 100;
    uint64_t max_bytes = 1ull << 30;
    // Least time between two manual incidents (POST /-/trigger), so a looping client cannot fill
    // the store; requests while one is pending join it. 0: no limit.
    Duration manual_interval = std::chrono::seconds(60);
    // The built-in rule oom_kill: every OOM kill the kernel counts fires an incident (a rule the
    // file names oom_kill replaces it; trigger/builtin_rules.h).
    bool capture_oom_kills = true;
    // Alertmanager and Grafana notifications (POST /-/trigger/alertmanager, /-/trigger/grafana).
    struct Alerts {
      // Matcher sets in Alertmanager's syntax (alert_matchers.h), checked at load; an alert
      // captures when any set holds. Empty: every alert captures.
      std::vector<std::string> match;
      // The window around the alert's startsAt.
      Duration pre = std::chrono::minutes(1);
      Duration post = std::chrono::minutes(1);
      // How far a resolved notification's endsAt may extend the window past post. 0: not at all.
      Duration max_extension = std::chrono::minutes(5);
      bool operator==(const Alerts&) const = default;
    } alerts;
    bool operator==(const Incidents&) const = default;
  } incidents;

  struct Log {
    std::string level = "info";
    bool operator==(const Log&) const = default;
  } log;

  // Whole-value comparison, so tests can check that the embedded defaults equal Config{}.
  bool operator==(const Config&) const = default;
};

}  // namespace flightrec::config
