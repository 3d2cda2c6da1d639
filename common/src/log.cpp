#include "flightrec/common/log.h"

#include <unistd.h>

#include <atomic>

#include "flightrec/common/clock.h"
#include "flightrec/common/enum_names.h"
#include "flightrec/common/printable.h"
#include "flightrec/common/time_format.h"

namespace flightrec::log {
namespace {

std::atomic<Level> g_level{Level::info};

// The one list of levels and their names, which records print and --log.level takes.
constexpr EnumName<Level> kLevelNames[] = {
    {Level::debug, "debug"}, {Level::info, "info"}, {Level::warn, "warn"}, {Level::error, "error"}};
static_assert(names_are_distinct(kLevelNames));

// logfmt quotes a value only when it holds a space, a quote or '=', or anything that is not
// printable UTF-8 (a control character, a byte that is not UTF-8); quoted, \n and \t are named and
// every other such byte escaped (\x1b, \xff), so a value from outside cannot forge a record, reach
// the terminal that tails the log, or make the log invalid UTF-8 for the collector that ships it.
void append_value(std::string& out, std::string_view value) {
  const bool needs_quotes = value.empty() ||
                            value.find_first_of(" \"=") != std::string_view::npos ||
                            !is_printable(value);
  if (!needs_quotes) {
    out += value;
    return;
  }
  out += quote_for_error(value, {.keep_non_ascii = true, .named_escapes = true});
}

}  // namespace

std::optional<Level> parse_level(std::string_view text) { return value_named(kLevelNames, text); }

void set_level(Level level) { g_level.store(level, std::memory_order_relaxed); }

bool enabled(Level level) { return level >= g_level.load(std::memory_order_relaxed); }

std::string format(Level level, std::string_view msg, std::initializer_list<Field> fields) {
  std::string out = "level=";
  out += name_of(kLevelNames, level);
  out += " msg=";
  append_value(out, msg);
  for (const auto& [key, value] : fields) {
    out += ' ';
    out += key;
    out += '=';
    append_value(out, value);
  }
  return out;
}

void write(Level level, std::string_view msg, std::initializer_list<Field> fields) {
  if (!enabled(level)) return;
  std::string line =
      "ts=" + format_rfc3339_ms(clock_ns(CLOCK_REALTIME)) + ' ' + format(level, msg, fields) + '\n';
  // One write(2) per line keeps lines from different threads whole.
  [[maybe_unused]] const auto written = ::write(STDERR_FILENO, line.data(), line.size());
}

}  // namespace flightrec::log
