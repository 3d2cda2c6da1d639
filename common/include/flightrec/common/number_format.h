#pragma once
// Numbers as text, written once for every format: a double becomes the shortest decimal that reads
// back as the same double (std::to_chars' round-trip guarantee), so 0.1 is "0.1", never
// "0.10000000000000001", and a CSV or JSON dump parses back to the values recorded. Formats
// disagree only on NaN and the infinities, so each names its spelling of them.
#include <charconv>
#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>

namespace flightrec {

struct NonFiniteSpelling {
  std::string_view nan;
  std::string_view positive_infinity;
  std::string_view negative_infinity;
};

// What std::from_chars reads back: "nan", "inf", "-inf" (the default).
inline constexpr NonFiniteSpelling kPlainSpelling{"nan", "inf", "-inf"};
// Prometheus' text formats (text 0.0.4 and OpenMetrics): "NaN", "+Inf", "-Inf".
inline constexpr NonFiniteSpelling kPrometheusSpelling{"NaN", "+Inf", "-Inf"};
// JSON has no such numbers: null.
inline constexpr NonFiniteSpelling kJsonSpelling{"null", "null", "null"};

// Appends the spelling of `value` and returns true when it is NaN or infinite; else does nothing.
bool append_non_finite(std::string& out, double value,
                       const NonFiniteSpelling& spelling = kPlainSpelling);

// The shortest round-trip decimal of `value` ("0.25", "1e+21", "-3").
void append_number(std::string& out, double value,
                   const NonFiniteSpelling& spelling = kPlainSpelling);
[[nodiscard]] std::string number_text(double value,
                                      const NonFiniteSpelling& spelling = kPlainSpelling);

// `raw * scale` with as many decimals as `scale` has (at most 9), trailing zeros dropped: a value
// stored in hundredths of a second (USER_HZ) reads "883.06", never "883.0600000000001", which is
// what the double nearest the product would spell. For people; machines get number_text.
[[nodiscard]] std::string scaled_number_text(int64_t raw, double scale);

// An integer in decimal digits.
template <std::integral Int>
requires(!std::same_as<Int, bool>) void append_number(std::string& out, Int value) {
  char text[24];  // 20 digits of UINT64_MAX, or a sign and 19 digits
  const auto result = std::to_chars(text, text + sizeof text, value);
  out.append(text, result.ptr);
}

}  // namespace flightrec
