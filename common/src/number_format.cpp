#include "flightrec/common/number_format.h"

#include <cmath>

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

}  // namespace flightrec
