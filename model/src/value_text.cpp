#include "flightrec/model/value_text.h"

#include <cmath>
#include <cstdarg>
#include <cstdio>

namespace flightrec::model {
namespace {

bool ends_with(std::string_view name, std::string_view suffix) {
  return name.size() >= suffix.size() && name.substr(name.size() - suffix.size()) == suffix;
}

// printf into a string; the attribute keeps -Wformat checking every call's arguments.
__attribute__((format(printf, 1, 2))) std::string printed(const char* pattern, ...) {
  char text[64];
  va_list args;
  va_start(args, pattern);
  std::vsnprintf(text, sizeof text, pattern, args);
  va_end(args);
  return text;
}

}  // namespace

std::string bytes_text(double bytes) {
  if (!std::isfinite(bytes)) return "-";
  static constexpr const char* kUnits[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double magnitude = std::abs(bytes);
  if (magnitude < 1024) return printed("%.0f B", bytes);
  size_t unit = 0;
  for (magnitude /= 1024; magnitude >= 1023.5 && unit + 1 < std::size(kUnits); ++unit) {
    magnitude /= 1024;
  }
  const double shown = std::copysign(magnitude, bytes);
  // Three significant digits, as df -h and free -h give about.
  if (magnitude < 9.995) return printed("%.2f %s", shown, kUnits[unit]);
  if (magnitude < 99.95) return printed("%.1f %s", shown, kUnits[unit]);
  return printed("%.0f %s", shown, kUnits[unit]);
}

std::string value_text(std::string_view series, double value) {
  if (!std::isfinite(value)) return "-";
  const std::string_view name = series.substr(0, series.find('{'));
  if (ends_with(name, "_bytes_per_second")) return bytes_text(value) + "/s";
  if (ends_with(name, "_bytes")) return bytes_text(value);
  if (ends_with(name, "_ratio")) return printed("%.1f%%", value * 100);
  if (ends_with(name, "_seconds")) return printed("%.4g s", value);
  if (ends_with(name, "_per_second")) return printed("%.4g/s", value);
  // No unit: six significant digits, but a large count whole rather than in exponent form.
  return std::abs(value) >= 1e6 ? printed("%.0f", value) : printed("%.6g", value);
}

}  // namespace flightrec::model
