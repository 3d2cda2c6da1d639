#include "numbers.h"

#include <array>
#include <charconv>
#include <cmath>
#include <string_view>

namespace flightrec::exporter::exposition::detail {
namespace {

// Longest shortest-round-trip rendering of a double is 24 characters ("-2.2250738585072014e-308").
using NumberBuffer = std::array<char, 32>;

bool append_special(std::string& out, double value) {
  if (std::isnan(value)) {
    out += "NaN";
  } else if (std::isinf(value)) {
    out += value > 0 ? "+Inf" : "-Inf";
  } else {
    return false;
  }
  return true;
}

// Beyond 2^53 not every integer is a double, so "whole number" stops meaning "exact integer".
constexpr double kLargestExactInteger = 9007199254740992.0;

}  // namespace

void append_value(std::string& out, double value) {
  if (append_special(out, value)) return;
  NumberBuffer buffer;
  char* const first = buffer.data();
  char* const last = first + buffer.size();
  const bool whole = std::trunc(value) == value && std::fabs(value) < kLargestExactInteger;
  // Fixed notation of a whole number is exactly its digits ("1000000", never "1e+06"). Otherwise
  // the shorter of fixed and scientific, so a created time stays "1700000000.5".
  const auto result = whole ? std::to_chars(first, last, value, std::chars_format::fixed)
                            : std::to_chars(first, last, value);
  out.append(first, result.ptr);
}

void append_value(std::string& out, std::uint64_t value) {
  NumberBuffer buffer;
  const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
  out.append(buffer.data(), result.ptr);
}

void append_canonical(std::string& out, double value) {
  if (append_special(out, value)) return;
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

}  // namespace flightrec::exporter::exposition::detail
