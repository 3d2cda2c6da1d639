#include "flightrec/common/flags.h"

#include <algorithm>

namespace flightrec::flags {
namespace {

Parsed failure(std::string error) {
  return {.help = false, .error = std::move(error), .unknown = {}};
}

std::string spelled(const Flag& flag) {
  std::string text = flag.alias.empty() ? "     " : "  " + std::string(flag.alias) + ",";
  text += " " + std::string(flag.name);
  if (takes_value(flag)) text += "=" + std::string(flag.value_name);
  return text;
}

}  // namespace

Apply store(std::string& target) {
  return [&target](std::string_view value) {
    target = std::string(value);
    return std::string();
  };
}

Apply store(std::optional<std::string>& target) {
  return [&target](std::string_view value) {
    target = std::string(value);
    return std::string();
  };
}

Apply enable(bool& target) {
  return [&target](std::string_view) {
    target = true;
    return std::string();
  };
}

const Flag* find(std::span<const Flag> flags, std::string_view name) {
  const auto it = std::find_if(flags.begin(), flags.end(), [name](const Flag& flag) {
    return flag.name == name || (!flag.alias.empty() && flag.alias == name);
  });
  return it == flags.end() ? nullptr : &*it;
}

Parsed parse(std::span<const std::string_view> args, std::span<const Flag> flags,
             const PositionalHandler& positional) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string_view arg = args[i];
    if (arg == "-h" || arg == "--help") return {.help = true, .error = {}, .unknown = {}};
    if (!arg.starts_with("-") || arg == "-") {
      if (!positional) return failure("unexpected argument \"" + std::string(arg) + "\"");
      if (auto error = positional(arg); !error.empty()) return failure(std::move(error));
      continue;
    }
    // Only long flags carry an attached value: `-n5` is not a spelling anyone relies on.
    const size_t eq = arg.starts_with("--") ? arg.find('=') : std::string_view::npos;
    const std::string_view name = arg.substr(0, eq);
    const Flag* flag = find(flags, name);
    if (flag == nullptr) {
      Parsed unknown = failure("unknown flag " + std::string(name));
      unknown.unknown = std::string(name);
      return unknown;
    }
    std::string_view value;
    if (!takes_value(*flag)) {
      if (eq != std::string_view::npos) return failure(std::string(name) + " takes no value");
    } else if (eq != std::string_view::npos) {
      value = arg.substr(eq + 1);
    } else if (i + 1 < args.size()) {
      value = args[++i];
    } else {
      return failure("flag " + std::string(name) + " needs a value");
    }
    if (takes_value(*flag) && value.empty()) {
      return failure("flag " + std::string(name) + " needs a non-empty value");
    }
    if (auto error = flag->apply(value); !error.empty()) {
      return failure(std::string(name) + ": " + error);
    }
  }
  return {};
}

std::string help_lines(std::span<const Flag> flags) {
  constexpr size_t kHelpColumn = 29;
  std::string out;
  for (const Flag& flag : flags) {
    std::string line = spelled(flag);
    // A spelling too long for the column puts its help on the next line, aligned.
    line += line.size() + 2 > kHelpColumn ? "\n" + std::string(kHelpColumn, ' ')
                                          : std::string(kHelpColumn - line.size(), ' ');
    for (const char c : flag.help) {
      line += c;
      if (c == '\n') line += std::string(kHelpColumn, ' ');
    }
    out += line + "\n";
  }
  return out;
}

}  // namespace flightrec::flags
