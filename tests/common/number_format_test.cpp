#include "flightrec/common/number_format.h"

#include <catch2/catch.hpp>
#include <charconv>
#include <cstdint>
#include <limits>

using flightrec::append_number;
using flightrec::kJsonSpelling;
using flightrec::kPrometheusSpelling;
using flightrec::number_text;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double read_back(const std::string& text) {
  double value = 0;
  std::from_chars(text.data(), text.data() + text.size(), value);
  return value;
}

}  // namespace

TEST_CASE("number_text writes the shortest decimal that reads back as the same double",
          "[number_format]") {
  CHECK(number_text(0.1) == "0.1");
  CHECK(number_text(0.25) == "0.25");
  CHECK(number_text(-3.0) == "-3");
  CHECK(number_text(1e21) == "1e+21");
  CHECK(number_text(1700000000.5) == "1700000000.5");
  for (const double value :
       {0.1 + 0.2, 1.0 / 3.0, 2.2250738585072014e-308, -1.7976931348623157e308, 123456.789e-12}) {
    CHECK(read_back(number_text(value)) == value);
  }
}

TEST_CASE("number_text spells NaN and the infinities as each format wants", "[number_format]") {
  CHECK(number_text(kNaN) == "nan");
  CHECK(number_text(kInf) == "inf");
  CHECK(number_text(-kInf) == "-inf");
  CHECK(read_back(number_text(-kInf)) == -kInf);
  CHECK(number_text(kNaN, kPrometheusSpelling) == "NaN");
  CHECK(number_text(kInf, kPrometheusSpelling) == "+Inf");
  CHECK(number_text(-kInf, kPrometheusSpelling) == "-Inf");
  CHECK(number_text(kNaN, kJsonSpelling) == "null");
  CHECK(number_text(-kInf, kJsonSpelling) == "null");
  CHECK(number_text(2.5, kJsonSpelling) == "2.5");
}

TEST_CASE("append_number writes integers as their digits", "[number_format]") {
  std::string out;
  append_number(out, std::numeric_limits<uint64_t>::max());
  out += ',';
  append_number(out, std::numeric_limits<int64_t>::min());
  out += ',';
  append_number(out, uint32_t{0});
  CHECK(out == "18446744073709551615,-9223372036854775808,0");
}

TEST_CASE("scaled_number_text writes a scaled value with the decimals its scale has",
          "[number_format]") {
  CHECK(flightrec::scaled_number_text(88306, 0.01) == "883.06");  // not 883.0600000000001
  CHECK(flightrec::scaled_number_text(70, 0.01) == "0.7");        // not 0.7000000000000001
  CHECK(flightrec::scaled_number_text(9036, 0.01) == "90.36");
  CHECK(flightrec::scaled_number_text(300, 0.01) == "3");
  CHECK(flightrec::scaled_number_text(1, 0.004) == "0.004");
  CHECK(flightrec::scaled_number_text(1'234'567'891, 1e-9) == "1.234567891");
  CHECK(flightrec::scaled_number_text(3, 1024) == "3072");
  CHECK(flightrec::scaled_number_text(-5, 0.1) == "-0.5");
  CHECK(flightrec::scaled_number_text(0, 0.01) == "0");
  CHECK(flightrec::scaled_number_text(1, 1.0 / 3.0) == "0.333333333");  // at most 9 decimals
}
