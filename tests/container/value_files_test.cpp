#include "flightrec/container/cgroups/value_files.h"

#include <catch2/catch.hpp>

#include "flightrec/container/cgroups/cgroup_stats.h"

using namespace flightrec::container;

TEST_CASE("parse_cgroup_count reads one number and its newline", "[container][value_files]") {
  const auto count = parse_cgroup_count("123456\n");
  REQUIRE(count.ok());
  CHECK(*count == 123456);
  CHECK(*parse_cgroup_count("0") == 0);
}

TEST_CASE("parse_cgroup_count names bytes that are not a count", "[container][value_files]") {
  for (const char* bad :
       {"", "\n", "-1\n", "12 \n", "1x", "max\n", "1\n2\n", "99999999999999999999\n"}) {
    const auto count = parse_cgroup_count(bad);
    REQUIRE_FALSE(count.ok());
    CHECK(count.error().find("is not a whole count") != std::string::npos);
  }
}

TEST_CASE("parse_cgroup_limit reads max and v1's no-limit as unlimited",
          "[container][value_files]") {
  CHECK(*parse_cgroup_limit("max\n") == kUnlimited);
  CHECK(*parse_cgroup_limit("9223372036854771712\n") == kUnlimited);  // 4 KiB pages
  CHECK(*parse_cgroup_limit("9223372036854710272\n") == kUnlimited);  // 64 KiB pages
  CHECK(*parse_cgroup_limit("536870912\n") == 536870912);
  const auto bad = parse_cgroup_limit("unlimited\n");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error() == "\"unlimited\" is not a limit (a whole count or \"max\")");
}
