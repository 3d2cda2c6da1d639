#include "flightrec/container/cgroups/pressure_file.h"

#include <catch2/catch.hpp>

using namespace flightrec::container;

TEST_CASE("parse_cgroup_pressure reads the some and full totals", "[container][pressure]") {
  const auto pressure = parse_cgroup_pressure(
      "some avg10=1.52 avg60=0.98 avg300=0.41 total=9123456\n"
      "full avg10=1.10 avg60=0.70 avg300=0.30 total=7012345\n");
  REQUIRE(pressure.ok());
  CHECK(*pressure == Pressure{9123456, 7012345});
}

TEST_CASE("parse_cgroup_pressure leaves full absent before Linux 5.13's cpu full line",
          "[container][pressure]") {
  const auto pressure = parse_cgroup_pressure("some avg10=0.00 avg60=0.00 avg300=0.00 total=12\n");
  REQUIRE(pressure.ok());
  CHECK(*pressure == Pressure{12, kAbsent});
}

TEST_CASE("parse_cgroup_pressure refuses bytes without a some total", "[container][pressure]") {
  for (const char* text : {"", "full avg10=0.00 total=3\n", "some avg10=0.00 total=x\n"}) {
    const auto pressure = parse_cgroup_pressure(text);
    REQUIRE_FALSE(pressure.ok());
    CHECK(pressure.error() == "no \"some ... total=<µs>\" line");
  }
}
