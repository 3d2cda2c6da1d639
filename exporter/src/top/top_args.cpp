#include <charconv>

#include "flightrec/config/units.h"
#include "flightrec/exporter/top.h"

namespace flightrec::exporter {
namespace {

std::optional<uint32_t> count_of(const std::string& text) {
  uint32_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end != text.data() + text.size()) return std::nullopt;
  return value;
}

}  // namespace

TopArgs parse_top_args(const std::vector<std::string>& args) {
  TopOptions options;
  for (size_t i = 0; i < args.size(); ++i) {
    std::string name = args[i];
    std::optional<std::string> value;
    if (const size_t eq = name.find('='); name.starts_with("--") && eq != std::string::npos) {
      value = name.substr(eq + 1);
      name.resize(eq);
    }
    if (name == "--net") {
      options.net = true;
      continue;
    }
    if (name == "--batch" || name == "-b") {
      options.batch = true;
      continue;
    }
    const bool takes_value = name == "-n" || name == "-d" || name == "--backend" ||
                             name == "--limit" || name == "--path.procfs" ||
                             name == "--config.file";
    if (!takes_value)
      return {std::nullopt, "top: unknown flag " + name + " (see flightrec --help)"};
    if (!value) {
      if (i + 1 == args.size()) return {std::nullopt, "top: " + name + " needs a value"};
      value = args[++i];
    }
    if (name == "-n" || name == "--limit") {
      const auto n = count_of(*value);
      if (!n) return {std::nullopt, "top: " + name + " \"" + *value + "\" is not a whole number"};
      if (name == "-n" && *n == 0) {
        return {std::nullopt, "top: -n 0 prints nothing; leave -n out to run until interrupted"};
      }
      (name == "-n" ? options.iterations : options.limit) = *n;
    } else if (name == "-d") {
      // Plain numbers are seconds, as in top(1); units as in the config (250ms, 2s).
      std::string text = *value;
      if (text.find_first_not_of("0123456789.") == std::string::npos) text += "s";
      const auto parsed = config::parse_duration(text);
      if (!parsed || parsed->count() < 10'000'000 || *parsed > std::chrono::hours(1)) {
        return {std::nullopt, "top: -d \"" + *value + "\" is not a delay between 10ms and 1h"};
      }
      options.delay = *parsed;
    } else if (name == "--backend") {
      if (*value != "auto" && *value != "ebpf" && *value != "sock_diag") {
        return {std::nullopt, "top: --backend \"" + *value + "\" is not auto, ebpf or sock_diag"};
      }
      options.backend = *value;
    } else if (name == "--config.file") {
      options.config_file = *value;
    } else {
      options.procfs = *value;
    }
  }
  return {options, {}};
}

}  // namespace flightrec::exporter
