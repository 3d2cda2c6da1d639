#include "flightrec/common/time_format.h"

#include <catch2/catch.hpp>

using flightrec::format_rfc3339_ms;
using flightrec::parse_rfc3339_ns;

TEST_CASE("format_rfc3339_ms writes UTC with milliseconds", "[time]") {
  CHECK(format_rfc3339_ms(0) == "1970-01-01T00:00:00.000Z");
  CHECK(format_rfc3339_ms(1796011918'123'999'999LL) == "2026-11-30T04:11:58.123Z");
}

TEST_CASE("format_rfc3339_ms rounds times before 1970 toward the past", "[time]") {
  CHECK(format_rfc3339_ms(-1) == "1969-12-31T23:59:59.999Z");
}

TEST_CASE(
    "RFC 3339 times as written (Go's RFC3339Nano: Alertmanager, Grafana), without the URL forms",
    "[time]") {
  CHECK(parse_rfc3339_ns("1970-01-01T00:00:00Z") == 0);
  CHECK(parse_rfc3339_ns("2026-12-02T03:04:05.123456789Z") == 1'796'180'645'123'456'789);
  CHECK(parse_rfc3339_ns("2026-12-02T04:04:05.123456789+01:00") == 1'796'180'645'123'456'789);
  CHECK(parse_rfc3339_ns("2026-12-02T03:04:05.5Z") == 1'796'180'645'500'000'000);
  CHECK(parse_rfc3339_ns("2024-02-29T00:00:00Z").has_value());
  CHECK_FALSE(parse_rfc3339_ns("2023-02-29T00:00:00Z"));
  CHECK_FALSE(parse_rfc3339_ns("2026-12-02 03:04:05Z"));
  CHECK_FALSE(parse_rfc3339_ns("2026-12-02T03:04:05"));
  CHECK_FALSE(parse_rfc3339_ns("2026-12-02T03:04:05.Z"));
  CHECK_FALSE(parse_rfc3339_ns("2026-12-02T03:04:05Zjunk"));
  CHECK_FALSE(parse_rfc3339_ns("0001-01-01T00:00:00Z"));  // before int64 ns
  CHECK_FALSE(parse_rfc3339_ns("2300-01-01T00:00:00Z"));  // after
  CHECK_FALSE(parse_rfc3339_ns(""));
}
