#include "flightrec/common/time_format.h"

#include <catch2/catch.hpp>

using flightrec::format_rfc3339_ms;

TEST_CASE("format_rfc3339_ms writes UTC with milliseconds", "[time]") {
  CHECK(format_rfc3339_ms(0) == "1970-01-01T00:00:00.000Z");
  CHECK(format_rfc3339_ms(1796011918'123'999'999LL) == "2026-11-30T04:11:58.123Z");
}

TEST_CASE("format_rfc3339_ms rounds times before 1970 toward the past", "[time]") {
  CHECK(format_rfc3339_ms(-1) == "1969-12-31T23:59:59.999Z");
}
