#include "flightrec/common/time_format.h"

#include <cstdio>
#include <ctime>

namespace flightrec {

std::string format_rfc3339_ms(int64_t unix_ns) {
  constexpr int64_t kNanosPerSecond = 1'000'000'000;
  int64_t seconds = unix_ns / kNanosPerSecond;
  int64_t nanos = unix_ns % kNanosPerSecond;
  if (nanos < 0) {  // floor, not truncation, for times before 1970
    nanos += kNanosPerSecond;
    --seconds;
  }
  const auto time = static_cast<std::time_t>(seconds);
  std::tm utc{};
  gmtime_r(&time, &utc);
  char text[48];
  const int length = std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ",
                                   utc.tm_year + 1900, utc.tm_mon + 1, utc.tm_mday, utc.tm_hour,
                                   utc.tm_min, utc.tm_sec, static_cast<int>(nanos / 1'000'000));
  return std::string(text, static_cast<size_t>(length));
}

}  // namespace flightrec
