#include "keyed_lines.h"

#include "flightrec/common/printable.h"

namespace flightrec::container::detail {

std::string line_error(size_t line_number, std::string_view line, std::string_view why) {
  constexpr size_t kShownBytes = 80;  // enough to recognise the line, short enough for a log
  return "line " + std::to_string(line_number) + " (" +
         quote_for_error(line, {.max_bytes = kShownBytes}) + "): " + std::string(why);
}

std::string no_field_error(std::string_view what, const std::string_view* keys, size_t count) {
  std::string message = "no field of " + std::string(what) + " (";
  for (size_t i = 0; i < count; ++i) {
    if (i > 0) message += ", ";
    message += keys[i];
  }
  return message + ")";
}

}  // namespace flightrec::container::detail
