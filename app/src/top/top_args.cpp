#include <charconv>

#include "flightrec/app/top.h"
#include "flightrec/config/units.h"

namespace flightrec::app {
namespace {

Status whole_number(std::string_view text, uint32_t& out) {
  uint32_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end != text.data() + text.size()) {
    return Error{"\"" + std::string(text) + "\" is not a whole number"};
  }
  out = value;
  return {};
}

Status delay(std::string_view value, std::chrono::nanoseconds& out) {
  // Plain numbers are seconds, as in top(1); units as in the config (250ms, 2s).
  std::string text(value);
  if (text.find_first_not_of("0123456789.") == std::string::npos) text += "s";
  const auto parsed = config::parse_duration(text);
  if (!parsed || parsed->count() < 10'000'000 || *parsed > std::chrono::hours(1)) {
    return Error{"\"" + std::string(value) + "\" is not a delay between 10ms and 1h"};
  }
  out = *parsed;
  return {};
}

}  // namespace

std::vector<flags::Flag> top_flags(TopOptions& o) {
  return {
      {"--net", "", "", "Per-process traffic instead of CPU and memory.", flags::enable(o.net)},
      {"--batch", "-b", "", "Plain output for scripts (no screen clearing).",
       flags::enable(o.batch)},
      {"--iterations", "-n", "N", "Print N screens, then exit (default: until q or Ctrl-C).",
       [&o](std::string_view value) -> Status {
         if (Status read = whole_number(value, o.iterations); !read) return read;
         if (o.iterations == 0) {
           return Error{"0 prints nothing; leave -n out to run until interrupted"};
         }
         return {};
       }},
      {"--delay", "-d", "DELAY",
       "Time between screens: seconds (0.5) or a duration (250ms);\ndefault 1s.",
       [&o](std::string_view value) { return delay(value, o.delay); }},
      {"--limit", "", "N", "Rows per screen (default: all in batch mode, else 40).",
       [&o](std::string_view value) { return whole_number(value, o.limit); }},
      {"--backend", "", "NAME", "Network backend: auto, ebpf or sock_diag (default: the config's).",
       [&o](std::string_view value) -> Status {
         if (value != "auto" && value != "ebpf" && value != "sock_diag") {
           return Error{"\"" + std::string(value) + "\" is not auto, ebpf or sock_diag"};
         }
         o.backend = std::string(value);
         return {};
       }},
      {"--path.procfs", "", "PATH", "procfs mount point (default /proc).", flags::store(o.procfs)},
      {"--config.file", "", "PATH", "Config file (default: the lookup, as for the daemon).",
       flags::store(o.config_file)},
  };
}

Result<TopArgs> parse_top_args(const std::vector<std::string>& args) {
  TopOptions options;
  const std::vector<std::string_view> views(args.begin(), args.end());
  const auto table = top_flags(options);
  const auto unknown = [&table](std::string_view flag) {
    return flags::unknown_flag_text(table, flag) + " (see flightrec top --help)";
  };
  const auto parsed = flags::parse(views, table, {}, unknown);
  if (!parsed) return Error{"top: " + parsed.error()};
  if (parsed->help) return TopArgs{.help = true, .options = {}};
  return TopArgs{.help = false, .options = options};
}

}  // namespace flightrec::app
