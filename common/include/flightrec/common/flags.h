#pragma once
// The one command-line flag parser every command uses (the daemon's and the global flags, `top`,
// `replay`), so flags are spelled, documented and refused the same way everywhere. A command
// declares its flags as a table; parsing applies each value through the flag's own `apply`, which
// says what is wrong with a value; the help text is printed from the same table.
//
// Accepted spellings: `--name=VALUE`, `--name VALUE`, `-n VALUE` (a short alias), and switches
// `--name` / `-b`. `-h` and `--help` ask for help wherever they stand. Errors are one line that
// names the flag: "unknown flag --x" (or what the command says about a flag it lacks), "flag --x
// needs a value", "flag --x needs a non-empty value", "--x takes no value", "--x: <what apply
// said>", "unexpected argument \"y\"".
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "flightrec/common/result.h"

namespace flightrec::flags {

using Apply = std::function<Status(std::string_view value)>;

struct Flag {
  std::string_view name;        // "--format"
  std::string_view alias;       // "-n", or "" when the flag has no short form
  std::string_view value_name;  // "FORMAT" in the help; "" for a switch, which takes no value
  std::string_view help;        // the help text; "\n" starts a continuation line
  // Takes the value (a switch gets ""), or says what is wrong with it.
  Apply apply;
};

// Every argument was accepted.
struct Parsed {
  bool help = false;  // -h or --help was given
};

// What to do with an argument that is not a flag: take it, or say what is wrong.
using PositionalHandler = std::function<Status(std::string_view argument)>;

// The error for a flag the table lacks (given as written, "--bogus"), so that a command can point
// to its own help or to the command that has the flag.
using UnknownFlag = std::function<std::string(std::string_view flag)>;

// Applies every argument in order; stops at the first error or at -h/--help. Without a
// positional handler, any non-flag argument is an error; without `unknown`, a flag the table
// lacks is unknown_flag_text's.
Result<Parsed> parse(std::span<const std::string_view> args, std::span<const Flag> flags,
                     const PositionalHandler& positional = {}, const UnknownFlag& unknown = {});

// "unknown flag --fromat; did you mean --format?" when one of `flags` is a likely typo of `flag`
// (closest_name: the measure config keys and signal names get), else "unknown flag --fromat". The
// default error for a flag the table lacks, and the start of a command's own.
std::string unknown_flag_text(std::span<const Flag> flags, std::string_view flag);

// The flag called `name` (long name or alias), or null.
const Flag* find(std::span<const Flag> flags, std::string_view name);

// The common applies: keep the value as given (a string or an optional one), or turn a switch on.
Apply store(std::string& target);
Apply store(std::optional<std::string>& target);
Apply enable(bool& target);

// False for a switch.
inline bool takes_value(const Flag& flag) { return !flag.value_name.empty(); }

// Help lines for the table, one flag per entry, the help texts aligned in one column:
//   "  -n, --name=VALUE      help"
std::string help_lines(std::span<const Flag> flags);

}  // namespace flightrec::flags
