#include "flightrec/common/printf_string.h"

#include <cstdarg>
#include <cstdio>

namespace flightrec {

std::string printf_string(const char* pattern, ...) {
  va_list args;
  va_start(args, pattern);
  va_list again;
  va_copy(again, args);
  // Most texts are one short line: one pass into a stack buffer, a second only for a longer one.
  char line[256];
  const int length = std::vsnprintf(line, sizeof line, pattern, args);
  va_end(args);
  std::string text;
  if (length > 0 && static_cast<size_t>(length) < sizeof line) {
    text.assign(line, static_cast<size_t>(length));
  } else if (length > 0) {
    text.resize(static_cast<size_t>(length));
    std::vsnprintf(text.data(), text.size() + 1, pattern, again);
  }
  va_end(again);
  return text;
}

}  // namespace flightrec
