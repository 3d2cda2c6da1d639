#pragma once
// Command-line parsing in the Prometheus style: `flightrec [command] [--flag=value|--flag value]`,
// through the one flag parser (common/flags.h) that `top` and `replay` use too. Parsing is pure
// (argv in, a Command or an error message out) so it is unit-tested directly.
#include <optional>
#include <string>
#include <vector>

#include "flightrec/common/result.h"

namespace flightrec::app {

enum class CommandKind {
  daemon,
  snapshot,
  check_config,
  dump,
  incidents,
  top,
  replay,
  help,
  version
};

struct Command {
  CommandKind kind = CommandKind::daemon;
  std::optional<CommandKind> help_for;            // help: the command whose help was asked for
  std::optional<std::string> config_file;         // --config.file
  std::optional<std::string> web_listen_address;  // --web.listen-address (overrides the config)
  std::optional<std::string> web_config_file;     // --web.config.file (TLS, basic auth)
  std::string procfs = "/proc";                   // --path.procfs
  std::string sysfs = "/sys";                     // --path.sysfs
  std::string cgroupfs = "/sys/fs/cgroup";        // --path.cgroupfs
  std::optional<std::string> log_level;           // --log.level (overrides the config)
  // daemon
  bool web_enable_lifecycle = false;            // --web.enable-lifecycle: serve POST /-/reload
  std::optional<std::string> web_max_requests;  // --web.max-requests (overrides the config)
  // snapshot
  std::optional<std::string> output;  // --output FILE (default: stdout)
  std::string format;                 // --format: json|text (snapshot), json|csv (dump)
  // The one positional argument: check-config's and dump's FILE, incidents' ID
  std::optional<std::string> argument;
  // incidents
  std::optional<std::string> dir;  // --dir (default: incidents.dir of the config)
  bool print_defaults = false;     // --print-defaults
  // top, replay: every argument after the command word, for the command's own parser (they take
  // short flags such as -n and -d, as top(1) does)
  std::vector<std::string> command_args;
};

// The command, or one line naming what was wrong.
Result<Command> parse_command_line(const std::vector<std::string>& args);

// The whole program's usage, or one command's (its flags and the global ones).
std::string usage_text(std::optional<CommandKind> kind = std::nullopt);
std::string version_text();

}  // namespace flightrec::app
