#include "numbers.h"

#include <array>
#include <charconv>
#include <cmath>
#include <string_view>

#include "flightrec/common/number_format.h"

namespace flightrec::exposition::detail {
namespace {

using NumberBuffer = std::array<char, 32>;

// Beyond 2^53 not every integer is a double, so "whole number" stops meaning "exact integer".
constexpr double kLargestExactInteger = 9007199254740992.0;

// Fixed notation of a whole number is exactly its digits ("1000000", never "1e+06").
void append_whole(std::string& out, double value) {
  NumberBuffer buffer;
  const auto result =
      std::to_chars(buffer.data(), buffer.data() + buffer.size(), value, std::chars_format::fixed);
  out.append(buffer.data(), result.ptr);
}

}  // namespace

void append_value(std::string& out, double value) {
  if (append_non_finite(out, value, kPrometheusSpelling)) return;
  if (std::trunc(value) == value && std::fabs(value) < kLargestExactInteger) {
    append_whole(out, value);
  } else {
    // The shortest round-trip form, so a created time stays "1700000000.5".
    append_number(out, value);
  }
}

void append_value(std::string& out, std::uint64_t value) { append_number(out, value); }

void append_canonical(std::string& out, double value) {
  if (append_non_finite(out, value, kPrometheusSpelling)) return;
  NumberBuffer buffer;
  // libstdc++'s shortest general form switches to an exponent below 1e-4 and from 1e+06, as Go's
  // %g does, which is what the OpenMetrics canonical numbers follow.
  const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value,
                                    std::chars_format::general);
  const std::string_view rendered(buffer.data(),
                                  static_cast<std::size_t>(result.ptr - buffer.data()));
  out += rendered;
  if (rendered.find_first_of(".e") == std::string_view::npos) out += ".0";
}

}  // namespace flightrec::exposition::detail
