#include "flightrec/replay/format.h"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "flightrec/common/printable.h"
#include "flightrec/common/printf_string.h"
#include "flightrec/replay/rss_growth.h"

namespace flightrec::replay {
namespace {}  // namespace

std::string format_bytes(std::optional<double> bytes) {
  if (!bytes || !std::isfinite(*bytes) || *bytes < 0) return "-";
  double value = *bytes;
  if (value < 999.5) return printf_string("%.0f", value);
  constexpr std::string_view kUnits = "KMGTPE";
  for (const char unit : kUnits) {
    value /= 1024;
    if (value < 9.95) return printf_string("%.1f%c", value, unit);
    if (value < 999.5) return printf_string("%.0f%c", value, unit);
  }
  return printf_string("%.0fE", value);
}

std::string format_bytes_with_unit(std::optional<double> bytes) {
  std::string text = format_bytes(bytes);
  if (text != "0" && std::isdigit(static_cast<unsigned char>(text.back())) != 0) text += 'B';
  return text;
}

std::string format_bytes_signed(std::optional<double> bytes) {
  if (!bytes || !std::isfinite(*bytes)) return "-";
  if (*bytes == 0) return "0";
  // The unit on small amounts too: "+512" beside "+1.2M" would read as a bare count.
  return (*bytes > 0 ? "+" : "-") + format_bytes_with_unit(std::abs(*bytes));
}

std::string format_percent(std::optional<double> ratio) {
  if (!ratio || !std::isfinite(*ratio)) return "-";
  return printf_string("%.1f", *ratio * 100);
}

std::string format_cpu_time(uint64_t nanoseconds) {
  const uint64_t hundredths = nanoseconds / 10'000'000;
  const uint64_t seconds = hundredths / 100;
  const uint64_t minutes = seconds / 60;
  if (minutes < 60) {
    return printf_string("%llu:%02llu.%02llu", static_cast<unsigned long long>(minutes),
                         static_cast<unsigned long long>(seconds % 60),
                         static_cast<unsigned long long>(hundredths % 100));
  }
  return printf_string("%lluh%02llu:%02llu", static_cast<unsigned long long>(minutes / 60),
                       static_cast<unsigned long long>(minutes % 60),
                       static_cast<unsigned long long>(seconds % 60));
}

std::string format_duration(int64_t nanoseconds) {
  const double seconds = static_cast<double>(nanoseconds) / 1e9;
  if (nanoseconds < 1'000'000'000) {
    return printf_string("%gms", static_cast<double>(nanoseconds) / 1e6);
  }
  if (seconds < 60) return printf_string("%gs", std::round(seconds * 1000) / 1000);
  const auto whole = static_cast<long long>(seconds);
  return printf_string("%lldm%02llds", whole / 60, whole % 60);
}

std::string grow_span_text(int64_t span_ns) {
  return span_ns == kWholeRecording ? "all" : format_duration(span_ns);
}

std::string format_offset(int64_t nanoseconds) {
  const char sign = nanoseconds < 0 ? '-' : '+';
  // Negated in unsigned arithmetic so that INT64_MIN (a damaged file's time) cannot overflow.
  const auto bits = static_cast<unsigned long long>(nanoseconds);
  const unsigned long long magnitude = nanoseconds < 0 ? 0ULL - bits : bits;
  return printf_string("%c%llu.%03llus", sign, magnitude / 1'000'000'000ULL,
                       magnitude / 1'000'000ULL % 1000);
}

std::string format_tty(int32_t tty_nr) {
  if (tty_nr == 0) return "-";
  const auto nr = static_cast<uint32_t>(tty_nr);
  const uint32_t major = (nr >> 8) & 0xfffu;
  const uint32_t minor = (nr & 0xffu) | ((nr >> 12) & 0xfff00u);
  // Unix98 pseudo-terminals use majors 136..143; virtual consoles are major 4 below minor 64.
  if (major >= 136 && major <= 143) return "pts/" + std::to_string((major - 136) * 256 + minor);
  if (major == 4 && minor < 64) return "tty" + std::to_string(minor);
  return std::to_string(major) + ":" + std::to_string(minor);
}

std::string printable(std::string_view text) { return flightrec::printable(text, Charset::ascii); }

}  // namespace flightrec::replay
