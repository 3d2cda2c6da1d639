#include "flightrec/common/number_format.h"

#include <cmath>
#include <cstdio>

namespace flightrec {

bool append_non_finite(std::string& out, double value, const NonFiniteSpelling& spelling) {
  if (std::isnan(value)) {
    out += spelling.nan;
  } else if (std::isinf(value)) {
    out += value > 0 ? spelling.positive_infinity : spelling.negative_infinity;
  } else {
    return false;
  }
  return true;
}

void append_number(std::string& out, double value, const NonFiniteSpelling& spelling) {
  if (append_non_finite(out, value, spelling)) return;
  // The longest shortest form is 24 characters: "-2.2250738585072014e-308".
  char text[32];
  const auto result = std::to_chars(text, text + sizeof text, value);
  out.append(text, result.ptr);
}

std::string number_text(double value, const NonFiniteSpelling& spelling) {
  std::string out;
  append_number(out, value, spelling);
  return out;
}

std::string scaled_number_text(int64_t raw, double scale) {
  const double value = static_cast<double>(raw) * scale;
  if (std::string out; append_non_finite(out, value)) return out;
  // The decimals of the scale: the first power of ten that makes it whole (0.01 -> 2, 1024 -> 0).
  int decimals = 0;
  for (double step = scale; decimals < 9; ++decimals, step *= 10) {
    if (std::abs(step - std::round(step)) <= 1e-9 * std::abs(step)) break;
  }
  char text[400];  // the widest double in %f with 9 decimals is ~320 characters
  const int length = std::snprintf(text, sizeof text, "%.*f", decimals, value);
  std::string out(text, static_cast<size_t>(length));
  if (out.find('.') != std::string::npos) {
    out.erase(out.find_last_not_of('0') + 1);
    if (out.back() == '.') out.pop_back();
  }
  return out == "-0" ? "0" : out;
}

}  // namespace flightrec
