#include "flightrec/exporter/cli.h"

#include <array>
#include <functional>
#include <string_view>

#include "flightrec/exporter/version.h"

namespace flightrec::exporter {
namespace {

struct FlagSpec {
  std::string_view name;
  std::function<void(Command&, std::string)> set;  // empty for switches
  std::function<void(Command&)> set_switch;
};

const std::vector<FlagSpec>& flag_specs() {
  static const std::vector<FlagSpec> specs = {
      {"--config.file", [](Command& c, std::string v) { c.config_file = std::move(v); }, {}},
      {"--web.listen-address",
       [](Command& c, std::string v) { c.web_listen_address = std::move(v); },
       {}},
      {"--path.procfs", [](Command& c, std::string v) { c.procfs = std::move(v); }, {}},
      {"--path.sysfs", [](Command& c, std::string v) { c.sysfs = std::move(v); }, {}},
      {"--path.cgroupfs", [](Command& c, std::string v) { c.cgroupfs = std::move(v); }, {}},
      {"--log.level", [](Command& c, std::string v) { c.log_level = std::move(v); }, {}},
      {"--output", [](Command& c, std::string v) { c.output = std::move(v); }, {}},
      {"--format", [](Command& c, std::string v) { c.format = std::move(v); }, {}},
      {"--dir", [](Command& c, std::string v) { c.dir = std::move(v); }, {}},
      {"--print-defaults", {}, [](Command& c) { c.print_defaults = true; }},
  };
  return specs;
}

const FlagSpec* find_flag(std::string_view name) {
  for (const auto& spec : flag_specs()) {
    if (spec.name == name) return &spec;
  }
  return nullptr;
}

std::optional<CommandKind> command_named(std::string_view word) {
  if (word == "daemon") return CommandKind::daemon;
  if (word == "snapshot") return CommandKind::snapshot;
  if (word == "check-config") return CommandKind::check_config;
  if (word == "dump") return CommandKind::dump;
  if (word == "incidents") return CommandKind::incidents;
  if (word == "top") return CommandKind::top;
  if (word == "replay") return CommandKind::replay;
  if (word == "help") return CommandKind::help;
  if (word == "version") return CommandKind::version;
  return std::nullopt;
}

// Flags that only make sense with one command are refused elsewhere rather than ignored.
std::string misplaced_flag(const Command& c, const std::vector<std::string_view>& seen) {
  for (std::string_view flag : seen) {
    const bool snapshot_only = flag == "--output";
    const bool snapshot_or_dump = flag == "--format";
    const bool check_only = flag == "--print-defaults";
    const bool incidents_only = flag == "--dir";
    if (snapshot_only && c.kind != CommandKind::snapshot) {
      return std::string(flag) + " only applies to `flightrec snapshot`";
    }
    if (snapshot_or_dump && c.kind != CommandKind::snapshot && c.kind != CommandKind::dump) {
      return std::string(flag) + " only applies to `flightrec snapshot` and `flightrec dump`";
    }
    if (incidents_only && c.kind != CommandKind::incidents) {
      return std::string(flag) + " only applies to `flightrec incidents`";
    }
    if (check_only && c.kind != CommandKind::check_config) {
      return std::string(flag) + " only applies to `flightrec check-config`";
    }
  }
  return {};
}

}  // namespace

ParseResult parse_command_line(const std::vector<std::string>& args) {
  Command command;
  bool have_command = false;
  std::vector<std::string_view> seen;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "-h" || arg == "--help") {
      command.kind = CommandKind::help;
      return {command, {}};
    }
    if (arg == "--version") {
      command.kind = CommandKind::version;
      return {command, {}};
    }
    if (arg.starts_with("--")) {
      const size_t eq = arg.find('=');
      const std::string name = arg.substr(0, eq);
      const FlagSpec* spec = find_flag(name);
      if (spec == nullptr)
        return {std::nullopt, "unknown flag " + name + " (see flightrec --help)"};
      seen.push_back(spec->name);
      if (spec->set_switch) {
        if (eq != std::string::npos) return {std::nullopt, name + " takes no value"};
        spec->set_switch(command);
        continue;
      }
      std::string value;
      if (eq != std::string::npos) {
        value = arg.substr(eq + 1);
      } else if (i + 1 < args.size()) {
        value = args[++i];
      } else {
        return {std::nullopt, "flag " + name + " needs a value"};
      }
      if (value.empty()) return {std::nullopt, "flag " + name + " needs a non-empty value"};
      spec->set(command, std::move(value));
      continue;
    }
    if (!have_command) {
      const auto kind = command_named(arg);
      if (!kind) {
        return {std::nullopt, "unknown command \"" + arg +
                                  "\" (commands: daemon, snapshot, check-config, dump, incidents, "
                                  "top, replay; see --help)"};
      }
      command.kind = *kind;
      have_command = true;
      if (command.kind == CommandKind::top || command.kind == CommandKind::replay) {
        command.command_args.assign(args.begin() + static_cast<std::ptrdiff_t>(i) + 1, args.end());
        break;
      }
      continue;
    }
    const bool takes_file =
        command.kind == CommandKind::check_config || command.kind == CommandKind::dump;
    if (takes_file && !command.check_file) {
      command.check_file = arg;
      continue;
    }
    return {std::nullopt, "unexpected argument \"" + arg + "\""};
  }
  if (command.kind == CommandKind::snapshot) {
    if (command.format.empty()) command.format = "text";
    if (command.format != "json" && command.format != "text") {
      return {std::nullopt, "--format: \"" + command.format + "\" is not json or text"};
    }
  }
  if (command.kind == CommandKind::dump) {
    if (command.format.empty()) command.format = "json";
    if (command.format != "json" && command.format != "csv") {
      return {std::nullopt, "--format: \"" + command.format + "\" is not json or csv"};
    }
    if (!command.check_file) return {std::nullopt, "dump needs a FILE (an incident or raw dump)"};
  }
  if (auto error = misplaced_flag(command, seen); !error.empty()) return {std::nullopt, error};
  return {command, {}};
}

std::string usage_text() {
  return R"(usage: flightrec [command] [flags]

A millisecond flight recorder for Linux and a Prometheus/OpenMetrics exporter.

Commands:
  daemon            Sample, record and serve HTTP (default).
  snapshot          Print one detailed snapshot of the system and every process.
  check-config [FILE]
                    Validate a config file (or the one the lookup finds) and exit.
  dump FILE         Convert an incident file or a /dump?format=raw file to JSON or CSV.
  incidents         List the incident files in incidents.dir (or --dir).
  top [--net]       A refreshing table of processes by CPU and memory, or with --net of
                    per-process network traffic (like nettop). Needs no daemon.
  replay SOURCE     Step through a recording (incident file, raw dump, or an http:// URL of
                    /dump or /incidents/ID) in an htop-like screen; --batch prints one moment.

Flags:
  -h, --help                   Show this help.
      --version                Show the version.
      --config.file=PATH       Config file. Default lookup: /etc/flightrec/flightrec.yaml,
                               then ./flightrec.yaml, then the embedded defaults.
      --web.listen-address=ADDR
                               Address to serve HTTP on (default 127.0.0.1:9717).
      --path.procfs=PATH       procfs mount point (default /proc).
      --path.sysfs=PATH        sysfs mount point (default /sys).
      --path.cgroupfs=PATH     cgroup mount point (default /sys/fs/cgroup).
      --log.level=LEVEL        debug, info, warn or error (default info).
  snapshot:
      --output=FILE            Write atomically to FILE instead of standard output.
      --format=FORMAT          json or text (default text).
  dump:
      --format=FORMAT          json or csv (default json).
  incidents:
      --dir=DIR                The incident directory (default: incidents.dir of the config).
  check-config:
      --print-defaults         Print the embedded default configuration.
  top:
      --net                    Per-process traffic instead of CPU and memory.
      -b, --batch              Plain output for scripts (no screen clearing).
      -n N                     Print N screens, then exit (default: until interrupted).
      -d DELAY                 Time between screens: seconds (0.5) or a duration (250ms); default 1s.
      --limit N                Rows per screen (default: all in batch mode, else 40).
      --backend=NAME           Network backend: auto, ebpf or sock_diag (default auto).
      --path.procfs=PATH       procfs mount point (default /proc).
  replay: see `flightrec replay --help`.
)";
}

std::string version_text() {
  return std::string("flightrec, version ") + std::string(kVersion) +
         " (revision: " + std::string(kRevision) + ")\n  compiler: " + std::string(kCompiler) +
         "\n";
}

}  // namespace flightrec::exporter
