#include "flightrec/replay/options.h"

#include <vector>

#include "flightrec/replay/model.h"

namespace flightrec::replay {
namespace {

ReplayArgs failure(std::string error) { return {std::nullopt, false, std::move(error)}; }

}  // namespace

ReplayArgs parse_replay_args(std::span<const std::string_view> args) {
  ReplayOptions options;
  bool have_source = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string_view arg = args[i];
    if (arg == "-h" || arg == "--help") return {std::nullopt, true, {}};
    if (!arg.starts_with("--")) {
      if (have_source) return failure("unexpected argument \"" + std::string(arg) + "\"");
      options.source = std::string(arg);
      have_source = true;
      continue;
    }
    const size_t eq = arg.find('=');
    const std::string_view name = arg.substr(0, eq);
    if (name == "--batch" || name == "--tree" || name == "--reverse") {
      if (eq != std::string_view::npos) return failure(std::string(name) + " takes no value");
      if (name == "--batch") options.batch = true;
      if (name == "--tree") options.tree = true;
      if (name == "--reverse") options.reverse = true;
      continue;
    }
    std::string_view value;
    if (eq != std::string_view::npos) {
      value = arg.substr(eq + 1);
    } else if (i + 1 < args.size()) {
      value = args[++i];
    } else {
      return failure("flag " + std::string(name) + " needs a value");
    }
    if (value.empty()) return failure("flag " + std::string(name) + " needs a non-empty value");
    if (name == "--at") {
      options.at = std::string(value);
    } else if (name == "--tab") {
      const auto tab = tab_named(value);
      if (!tab) {
        return failure("--tab: \"" + std::string(value) +
                       "\" is not one of processes, network, connections, listening, sessions");
      }
      options.tab = *tab;
    } else if (name == "--sort") {
      options.sort = std::string(value);
    } else if (name == "--filter") {
      options.filter = std::string(value);
    } else if (name == "--format") {
      if (value == "text") {
        options.format = BatchFormat::text;
      } else if (value == "json") {
        options.format = BatchFormat::json;
      } else {
        return failure("--format: \"" + std::string(value) + "\" is not text or json");
      }
    } else if (name == "--interval") {
      const auto interval = parse_interval(value);
      if (!interval || *interval > 60'000'000'000) {
        return failure("--interval: \"" + std::string(value) +
                       "\" is not a duration up to 1m (examples: sample, 10ms, 1s)");
      }
      options.interval_ns = *interval;
    } else {
      return failure("unknown flag " + std::string(name) + " (see flightrec replay --help)");
    }
  }
  if (!have_source) return failure("replay needs a SOURCE (a recording file or an http:// URL)");
  if (!options.batch && options.format != BatchFormat::text) {
    return failure("--format only applies with --batch");
  }
  return {options, false, {}};
}

std::string replay_usage() {
  return R"(usage: flightrec replay SOURCE [flags]

Travel through a recording in an htop-like view. SOURCE is an incident file, a
/dump?format=raw file, or an http://host:port/dump?... or /incidents/{id} URL
(fetched once, then replayed offline).

Flags:
  --batch             Print the view at one time and exit (no terminal needed).
  --at=TIME           Cursor time: RFC 3339 (UTC without a zone; a space for the T
                      works), a time of day (07:46:35.250, UTC, on the recording's
                      date), Unix seconds, start, end, +2.5s from the start or -1s
                      from the end; a time outside the recording shows its start or
                      end, with a note. Default: the trigger point if the
                      recording has one, else the end.
  --tab=TAB           processes, network, connections, listening or sessions.
  --sort=COLUMN       Sort by this column (its header, e.g. MEM% or PID).
  --reverse           Reverse the column's natural order (numbers biggest first,
                      text A to Z): numbers smallest first, text Z to A.
  --filter=TEXT       Only rows whose command, user or address contains TEXT.
  --tree              Show processes as a tree.
  --interval=DURATION What rates cover: sample, 10ms, 100ms, 1s (default 1s).
  --format=FORMAT     With --batch: text or json (default text).

In the interactive view, press h or F1 for the keys.
)";
}

}  // namespace flightrec::replay
