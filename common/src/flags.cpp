#include "flightrec/common/flags.h"

#include <algorithm>

#include "flightrec/common/closest_name.h"

namespace flightrec::flags {
namespace {

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
    return Status{};
  };
}

Apply store(std::optional<std::string>& target) {
  return [&target](std::string_view value) {
    target = std::string(value);
    return Status{};
  };
}

Apply enable(bool& target) {
  return [&target](std::string_view) {
    target = true;
    return Status{};
  };
}

std::string unknown_flag_text(std::span<const Flag> flags, std::string_view flag) {
  std::string text = "unknown flag " + std::string(flag);
  // Long names only: one-letter aliases are all one edit apart.
  std::vector<std::string_view> names;
  for (const Flag& known : flags) names.push_back(known.name);
  if (auto meant = closest_name(flag, names)) text += "; did you mean " + std::string(*meant) + "?";
  return text;
}

const Flag* find(std::span<const Flag> flags, std::string_view name) {
  const auto it = std::find_if(flags.begin(), flags.end(), [name](const Flag& flag) {
    return flag.name == name || (!flag.alias.empty() && flag.alias == name);
  });
  return it == flags.end() ? nullptr : &*it;
}

Result<Parsed> parse(std::span<const std::string_view> args, std::span<const Flag> flags,
                     const PositionalHandler& positional, const UnknownFlag& unknown) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string_view arg = args[i];
    if (arg == "-h" || arg == "--help") return Parsed{.help = true};
    if (!arg.starts_with("-") || arg == "-") {
      if (!positional) return Error{"unexpected argument \"" + std::string(arg) + "\""};
      if (Status taken = positional(arg); !taken) return Error{std::move(taken).error()};
      continue;
    }
    // Only long flags carry an attached value: `-n5` is not a spelling anyone relies on.
    const size_t eq = arg.starts_with("--") ? arg.find('=') : std::string_view::npos;
    const std::string_view name = arg.substr(0, eq);
    const Flag* flag = find(flags, name);
    if (flag == nullptr) {
      return Error{unknown ? unknown(name) : unknown_flag_text(flags, name)};
    }
    std::string_view value;
    if (!takes_value(*flag)) {
      if (eq != std::string_view::npos) return Error{std::string(name) + " takes no value"};
    } else if (eq != std::string_view::npos) {
      value = arg.substr(eq + 1);
    } else if (i + 1 < args.size()) {
      value = args[++i];
    } else {
      return Error{"flag " + std::string(name) + " needs a value"};
    }
    if (takes_value(*flag) && value.empty()) {
      return Error{"flag " + std::string(name) + " needs a non-empty value"};
    }
    if (Status applied = flag->apply(value); !applied) {
      return Error{std::string(name) + ": " + applied.error()};
    }
  }
  return Parsed{};
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
