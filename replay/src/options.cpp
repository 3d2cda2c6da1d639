#include "flightrec/replay/options.h"

#include <string>
#include <string_view>
#include <vector>

#include "flightrec/common/flags.h"
#include "flightrec/replay/model.h"
#include "flightrec/replay/table.h"

namespace flightrec::replay {
namespace {

// The tab table's names, "processes, network, ..." with `last` before the last one: a tab added
// to the table is in --tab's help and error without another edit.
std::string tab_names(std::string_view last) {
  std::string text;
  for (size_t i = 0; i < std::size(kTabNames); ++i) {
    if (i > 0) text += i + 1 == std::size(kTabNames) ? last : ", ";
    text += kTabNames[i].name;
  }
  return text;
}

// Flag::help is a view: the text lives as long as the program.
std::string_view tab_help() {
  static const std::string text = tab_names(" or ") + ".";
  return text;
}

// The flags whose values are checked, each as the table's Apply.
flags::Apply take_tab(ReplayOptions& o) {
  return [&o](std::string_view value) -> Status {
    const auto tab = tab_named(value);
    if (!tab) return Error{"\"" + std::string(value) + "\" is not one of " + tab_names(", ")};
    o.tab = *tab;
    return {};
  };
}

flags::Apply take_interval(ReplayOptions& o) {
  return [&o](std::string_view value) -> Status {
    const auto interval = parse_interval(value);
    if (!interval || *interval > 60'000'000'000) {
      return Error{"\"" + std::string(value) +
                   "\" is not a duration up to 1m (examples: sample, 10ms, 1s)"};
    }
    o.interval_ns = *interval;
    return {};
  };
}

flags::Apply take_grow_span(ReplayOptions& o) {
  return [&o](std::string_view value) -> Status {
    if (value == "all") {
      o.grow_span_ns = kWholeRecording;
      return {};
    }
    const auto span = parse_interval(value);
    if (!span || *span <= 0) {
      return Error{"\"" + std::string(value) +
                   "\" is not a duration or all (examples: 1s, 10s, 1m, all)"};
    }
    o.grow_span_ns = *span;
    return {};
  };
}

flags::Apply take_format(ReplayOptions& o) {
  return [&o](std::string_view value) -> Status {
    if (value == "text") {
      o.format = BatchFormat::text;
    } else if (value == "json") {
      o.format = BatchFormat::json;
    } else {
      return Error{"\"" + std::string(value) + "\" is not text or json"};
    }
    return {};
  };
}

}  // namespace

std::vector<flags::Flag> replay_flags(ReplayOptions& o) {
  using flags::enable;
  using flags::store;
  return {
      {"--batch", "", "", "Print the view at one time and exit (no terminal needed).",
       enable(o.batch)},
      {"--at", "", "TIME",
       "Cursor time: RFC 3339 (UTC without a zone; a space for the T\nworks), a time of day "
       "(07:46:35.250, UTC, on the recording's\ndate), Unix seconds, start, end, +2.5s from the "
       "start or -1s\nfrom the end; a time outside the recording shows its start or\nend, with a "
       "note. Default: the trigger point if the\nrecording has one, else the end.",
       store(o.at)},
      {"--tab", "", "TAB", tab_help(), take_tab(o)},
      {"--sort", "", "COLUMN", "Sort by this column (its header, e.g. MEM% or PID).",
       store(o.sort)},
      {"--reverse", "", "",
       "Reverse the column's natural order (numbers biggest first,\ntext A to Z): numbers "
       "smallest first, text Z to A.",
       enable(o.reverse)},
      {"--filter", "", "TEXT", "Only rows whose command, user or address contains TEXT.",
       store(o.filter)},
      {"--tree", "", "", "Show processes as a tree.", enable(o.tree)},
      {"--interval", "", "DURATION", "What rates cover: sample, 10ms, 100ms, 1s (default 1s).",
       take_interval(o)},
      {"--grow-span", "", "DURATION",
       "What RGROW (RSS growth) covers up to the cursor: 1s, 10s, 1m,\n... or all (the "
       "recording up to the cursor). Default 10s.",
       take_grow_span(o)},
      {"--ca-file", "", "PATH",
       "For an https:// SOURCE: the CA (PEM) that signed the daemon's\ncertificate "
       "(env FLIGHTREC_CA_FILE; default: the system's).",
       store(o.credentials.ca_file)},
      {"--cert-file", "", "PATH",
       "Client certificate (PEM) for a daemon that requires one\n(env FLIGHTREC_CERT_FILE).",
       store(o.credentials.cert_file)},
      {"--key-file", "", "PATH",
       "Its private key (PEM), if not in --cert-file (env FLIGHTREC_KEY_FILE).",
       store(o.credentials.key_file)},
      {"--user", "", "NAME", "Basic-auth user (env FLIGHTREC_USER).", store(o.credentials.user)},
      {"--password-file", "", "PATH",
       "File whose first line is the user's password (env\nFLIGHTREC_PASSWORD holds it "
       "instead; never a flag value).",
       store(o.credentials.password_file)},
      {"--format", "", "FORMAT", "With --batch: text or json (default text).", take_format(o)},
  };
}

Result<ReplayArgs> parse_replay_args(std::span<const std::string_view> args) {
  ReplayOptions options;
  bool have_source = false;
  const auto table = replay_flags(options);
  const auto take_source = [&](std::string_view argument) -> Status {
    if (have_source) return Error{"unexpected argument \"" + std::string(argument) + "\""};
    options.source = std::string(argument);
    have_source = true;
    return {};
  };
  const auto unknown = [&table](std::string_view flag) {
    return flags::unknown_flag_text(table, flag) + " (see flightrec replay --help)";
  };
  const auto parsed = flags::parse(args, table, take_source, unknown);
  if (!parsed) return Error{parsed.error()};
  if (parsed->help) return ReplayArgs{.help = true, .options = {}};
  if (!have_source) return Error{"replay needs a SOURCE (a recording file or an http(s):// URL)"};
  if (!options.batch && options.format != BatchFormat::text) {
    return Error{"--format only applies with --batch"};
  }
  return ReplayArgs{.help = false, .options = options};
}

std::string replay_usage() {
  ReplayOptions scratch;
  return R"(usage: flightrec replay SOURCE [flags]

Travel through a recording in an htop-like view. SOURCE is an incident file, a
/dump?format=raw file, or an http(s)://host:port/dump?... or /incidents/{id} URL
(fetched once with libcurl, then replayed offline; http_proxy, https_proxy and
no_proxy apply).

Flags:
)" + flags::help_lines(replay_flags(scratch)) +
         R"(
In the interactive view, press h or F1 for the keys.
)";
}

}  // namespace flightrec::replay
