#include "flightrec/model/value_text.h"

#include <cmath>

#include "flightrec/common/printf_string.h"

namespace flightrec::model {
namespace {

bool ends_with(std::string_view name, std::string_view suffix) {
  return name.size() >= suffix.size() && name.substr(name.size() - suffix.size()) == suffix;
}

}  // namespace

std::string bytes_text(double bytes) {
  if (!std::isfinite(bytes)) return "-";
  static constexpr const char* kUnits[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double magnitude = std::abs(bytes);
  if (magnitude < 1024) return printf_string("%.0f B", bytes);
  size_t unit = 0;
  for (magnitude /= 1024; magnitude >= 1023.5 && unit + 1 < std::size(kUnits); ++unit) {
    magnitude /= 1024;
  }
  const double shown = std::copysign(magnitude, bytes);
  // Three significant digits, as df -h and free -h give about.
  if (magnitude < 9.995) return printf_string("%.2f %s", shown, kUnits[unit]);
  if (magnitude < 99.95) return printf_string("%.1f %s", shown, kUnits[unit]);
  return printf_string("%.0f %s", shown, kUnits[unit]);
}

std::string value_text(std::string_view series, double value) {
  if (!std::isfinite(value)) return "-";
  const std::string_view name = series.substr(0, series.find('{'));
  if (ends_with(name, "_bytes_per_second")) return bytes_text(value) + "/s";
  if (ends_with(name, "_bytes")) return bytes_text(value);
  if (ends_with(name, "_ratio")) return printf_string("%.1f%%", value * 100);
  if (ends_with(name, "_seconds")) return printf_string("%.4g s", value);
  if (ends_with(name, "_per_second")) return printf_string("%.4g/s", value);
  // No unit: six significant digits, but a large count whole rather than in exponent form.
  return std::abs(value) >= 1e6 ? printf_string("%.0f", value) : printf_string("%.6g", value);
}

}  // namespace flightrec::model
