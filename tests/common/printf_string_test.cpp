#include "flightrec/common/printf_string.h"

#include <catch2/catch.hpp>
#include <string>

TEST_CASE("printf_string formats short and long texts whole", "[printf_string]") {
  CHECK(flightrec::printf_string("%5.1f|%-4s|%03d", 2.25, "ab", 7) == "  2.2|ab  |007");
  CHECK(flightrec::printf_string("%s", "").empty());
  const std::string long_text(1000, 'x');
  const std::string printed = flightrec::printf_string("<%s>", long_text.c_str());
  CHECK(printed == "<" + long_text + ">");
}
