#include "flightrec/app/cli.h"

#include <array>
#include <string_view>

#include "flightrec/app/top.h"
#include "flightrec/common/flags.h"
#include "flightrec/common/version.h"
#include "flightrec/replay/options.h"

namespace flightrec::app {
namespace {

using flags::Apply;
using flags::Flag;
using flags::store;

Apply one_of(std::string& target, std::vector<std::string_view> allowed) {
  return [&target, allowed = std::move(allowed)](std::string_view value) -> Status {
    std::string names;
    for (const std::string_view name : allowed) {
      if (name == value) {
        target = std::string(value);
        return {};
      }
      names += (names.empty() ? "" : " or ") + std::string(name);
    }
    return Error{"\"" + std::string(value) + "\" is not " + names};
  };
}

std::vector<Flag> global_flags(Command& c) {
  return {
      {"--config.file", "", "PATH",
       "Config file. Default lookup: /etc/flightrec/flightrec.yaml,\nthen ./flightrec.yaml, then "
       "the embedded defaults.",
       store(c.config_file)},
      {"--web.listen-address", "", "ADDR", "Address to serve HTTP on (default 127.0.0.1:9717).",
       store(c.web_listen_address)},
      {"--web.config.file", "", "FILE",
       "TLS, basic auth and response headers, in the Prometheus\nexporter-toolkit format "
       "(docs/SECURITY.md).",
       store(c.web_config_file)},
      {"--path.procfs", "", "PATH", "procfs mount point (default /proc).", store(c.procfs)},
      {"--path.sysfs", "", "PATH", "sysfs mount point (default /sys).", store(c.sysfs)},
      {"--path.cgroupfs", "", "PATH", "cgroup mount point (default /sys/fs/cgroup).",
       store(c.cgroupfs)},
      {"--log.level", "", "LEVEL", "debug, info, warn or error (default info).",
       store(c.log_level)},
  };
}

std::vector<Flag> no_flags(Command&) { return {}; }

std::vector<Flag> daemon_flags(Command& c) {
  return {{"--web.enable-lifecycle", "", "",
           "Serve POST /-/reload (re-read the configuration, as SIGHUP does).",
           flags::enable(c.web_enable_lifecycle)},
          {"--web.max-requests", "", "N",
           "Most requests answered at once per route; more get 503\n(web.max_requests, default "
           "40; 0: no limit).",
           store(c.web_max_requests)}};
}

std::vector<Flag> snapshot_flags(Command& c) {
  return {{"--output", "", "FILE", "Write atomically to FILE instead of standard output.",
           store(c.output)},
          {"--format", "", "FORMAT", "json or text (default text).",
           one_of(c.format, {"json", "text"})}};
}

std::vector<Flag> dump_flags(Command& c) {
  return {
      {"--format", "", "FORMAT", "json or csv (default json).", one_of(c.format, {"json", "csv"})}};
}

std::vector<Flag> incidents_flags(Command& c) {
  return {{"--dir", "", "DIR", "The incident directory (default: incidents.dir of the config).",
           store(c.dir)}};
}

std::vector<Flag> check_config_flags(Command& c) {
  return {{"--print-defaults", "", "", "Print the embedded default configuration.",
           flags::enable(c.print_defaults)}};
}

struct CommandSpec {
  std::string_view word;
  CommandKind kind;
  std::string_view arguments;  // what follows the word in the usage line
  std::string_view summary;
  std::vector<Flag> (*own_flags)(Command&);
  bool takes_argument = false;  // one positional argument (FILE, ID)
  bool own_parser = false;      // everything after the word goes to the command's own table
};

// The one list of commands: the usage, the unknown-command error and the flag errors follow it.
const auto& commands() {
  static const auto specs = std::to_array<CommandSpec>({
      {"daemon", CommandKind::daemon, "", "Sample, record and serve HTTP (default).", daemon_flags},
      {"snapshot", CommandKind::snapshot, "",
       "Print one detailed snapshot of the system and every process.", snapshot_flags},
      {"check-config", CommandKind::check_config, "[FILE]",
       "Validate a config file (or the one the lookup finds) and exit.", check_config_flags, true},
      {"dump", CommandKind::dump, "FILE",
       "Convert an incident file or a /dump?format=raw file to JSON or CSV.", dump_flags, true},
      {"incidents", CommandKind::incidents, "[ID]",
       "List the incident files in incidents.dir (or --dir); with an ID, that\nincident in full "
       "(an alert's labels and annotations, an OOM kill's victim).",
       incidents_flags, true},
      {"top", CommandKind::top, "[--net]",
       "A refreshing table of processes by CPU and memory, or with --net of\nper-process network "
       "traffic (like nettop). Needs no daemon.",
       no_flags, false, true},
      {"replay", CommandKind::replay, "SOURCE",
       "Step through a recording (incident file, raw dump, or an http(s):// URL of\n/dump or "
       "/incidents/ID) in an htop-like screen; --batch prints one moment.",
       no_flags, false, true},
  });
  return specs;
}

const CommandSpec* command_named(std::string_view word) {
  for (const auto& spec : commands()) {
    if (spec.word == word) return &spec;
  }
  return nullptr;
}

const CommandSpec& spec_of(CommandKind kind) {
  for (const auto& spec : commands()) {
    if (spec.kind == kind) return spec;
  }
  return commands().front();
}

// Where the command word stands: the first argument that is neither a flag nor a flag's value.
std::optional<size_t> command_word_at(const std::vector<std::string_view>& args) {
  Command scratch;
  std::vector<Flag> known = global_flags(scratch);
  for (const auto& spec : commands()) {
    for (auto& flag : spec.own_flags(scratch)) known.push_back(std::move(flag));
  }
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string_view arg = args[i];
    if (!arg.starts_with("-")) return i;
    const Flag* flag = flags::find(known, arg);
    if (flag != nullptr && flags::takes_value(*flag)) ++i;  // its value is the next argument
  }
  return std::nullopt;
}

// "daemon, snapshot, ...": every command word, in the table's order.
std::string command_words() {
  std::string words;
  for (const auto& spec : commands()) {
    if (!words.empty()) words += ", ";
    words += spec.word;
  }
  return words;
}

// An unknown flag that another command takes is named with that command, not just refused; else a
// likely typo of one of `table`'s (the command's and the global flags) is named.
std::string unknown_flag_error(std::span<const Flag> table, std::string_view flag,
                               const CommandSpec* word) {
  Command scratch;
  std::string owners;
  for (const auto& spec : commands()) {
    const auto own = spec.own_flags(scratch);
    if (flags::find(own, flag) == nullptr) continue;
    owners += (owners.empty() ? "" : " and ") + ("`flightrec " + std::string(spec.word) + "`");
  }
  if (!owners.empty()) return std::string(flag) + " only applies to " + owners;
  const std::string help =
      word == nullptr ? "flightrec --help" : "flightrec " + std::string(word->word) + " --help";
  return flags::unknown_flag_text(table, flag) + " (see " + help + ")";
}

Result<Command> parse_flags(const std::vector<std::string_view>& args, const CommandSpec* word,
                            Command& command) {
  const CommandSpec& spec = word != nullptr ? *word : commands().front();
  std::vector<Flag> table = global_flags(command);
  if (!spec.own_parser) {
    for (auto& flag : spec.own_flags(command)) table.push_back(std::move(flag));
  }
  const auto take_argument = [&command, &spec](std::string_view argument) -> Status {
    if (!spec.takes_argument || command.argument) {
      return Error{"unexpected argument \"" + std::string(argument) + "\""};
    }
    command.argument = std::string(argument);
    return {};
  };
  const auto unknown = [&table, word](std::string_view flag) {
    return unknown_flag_error(table, flag, word);
  };
  const auto parsed = flags::parse(args, table, take_argument, unknown);
  if (!parsed) return Error{parsed.error()};
  if (parsed->help) {
    Command help{.kind = CommandKind::help};
    if (word != nullptr) help.help_for = word->kind;
    return help;
  }
  return command;
}

// Fills what a command's flags leave unset, and refuses what is missing.
Status complete(Command& command) {
  if (command.kind == CommandKind::snapshot && command.format.empty()) command.format = "text";
  if (command.kind == CommandKind::dump) {
    if (command.format.empty()) command.format = "json";
    if (!command.argument) return Error{"dump needs a FILE (an incident or raw dump)"};
  }
  return {};
}

}  // namespace

Result<Command> parse_command_line(const std::vector<std::string>& raw_args) {
  const std::vector<std::string_view> args(raw_args.begin(), raw_args.end());
  for (const std::string_view arg : args) {
    if (!arg.starts_with("-")) break;  // past the command word, flags are the command's
    if (arg == "--version") return Command{.kind = CommandKind::version};
  }
  Command command;
  const auto word_at = command_word_at(args);
  const CommandSpec* word = nullptr;
  std::vector<std::string_view> flag_args = args;
  if (word_at) {
    word = command_named(args[*word_at]);
    if (word == nullptr) {
      return Error{"unknown command \"" + std::string(args[*word_at]) +
                   "\" (commands: " + command_words() + "; see --help)"};
    }
    command.kind = word->kind;
    const auto at = args.begin() + static_cast<std::ptrdiff_t>(*word_at);
    flag_args.assign(args.begin(), at);
    if (word->own_parser) {
      command.command_args.assign(at + 1, args.end());
    } else {
      flag_args.insert(flag_args.end(), at + 1, args.end());
    }
  }
  Result<Command> result = parse_flags(flag_args, word, command);
  if (!result || result->kind == CommandKind::help) return result;
  if (Status completed = complete(*result); !completed) return Error{completed.error()};
  return result;
}

std::string usage_text(std::optional<CommandKind> kind) {
  Command scratch;
  const std::string global = flags::help_lines(global_flags(scratch));
  if (kind && *kind != CommandKind::help && *kind != CommandKind::version) {
    const CommandSpec& spec = spec_of(*kind);
    if (spec.kind == CommandKind::replay) return replay::replay_usage();
    std::string text = "usage: flightrec " + std::string(spec.word) +
                       (spec.arguments.empty() ? "" : " " + std::string(spec.arguments)) +
                       " [flags]\n\n" + std::string(spec.summary) + "\n\nFlags:\n";
    if (spec.kind == CommandKind::top) {  // top's table holds the global flags it takes
      TopOptions top;
      return text + flags::help_lines(top_flags(top)) + "\nKeys:\n" + top_keys_text();
    }
    return text + flags::help_lines(spec.own_flags(scratch)) + "\nGlobal flags:\n" + global;
  }
  std::string text =
      "usage: flightrec [command] [flags]\n\nA millisecond flight recorder for Linux and a "
      "Prometheus/OpenMetrics exporter.\n\nCommands:\n";
  for (const auto& spec : commands()) {
    std::string line = "  " + std::string(spec.word);
    if (!spec.arguments.empty()) line += " " + std::string(spec.arguments);
    line += line.size() + 2 > 20 ? "\n" + std::string(20, ' ') : std::string(20 - line.size(), ' ');
    for (const char c : spec.summary)
      line += c == '\n' ? "\n" + std::string(20, ' ') : std::string(1, c);
    text += line + "\n";
  }
  const std::vector<Flag> meta = {
      {"--help", "-h", "", "Show this help; after a command word, that command's.", {}},
      {"--version", "", "", "Show the version.", {}}};
  return text + "\nGlobal flags:\n" + flags::help_lines(meta) + global +
         "\nSee `flightrec COMMAND --help` for each command's own flags.\n";
}

std::string version_text() {
  return std::string("flightrec, version ") + std::string(kVersion) +
         " (revision: " + std::string(kRevision) + ")\n  compiler: " + std::string(kCompiler) +
         "\n";
}

}  // namespace flightrec::app
