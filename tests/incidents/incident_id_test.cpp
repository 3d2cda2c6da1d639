#include "flightrec/incidents/incident_id.h"

#include <catch2/catch.hpp>

#include "incident_fixture.h"

using namespace flightrec::incidents;

TEST_CASE("Incident ids are the UTC time to the millisecond followed by the rule", "[incidents]") {
  CHECK(make_incident_id(incident_test::kT0 + 123'456'789, "cpu_busy") ==
        "20251130T050000.123Z-cpu_busy");
  CHECK(make_incident_id(incident_test::kT0, "cpu_busy", 3) == "20251130T050000.000Z-cpu_busy-3");
}

TEST_CASE("Incident ids sort in time order", "[incidents]") {
  const auto earlier = make_incident_id(incident_test::kT0 + 999'000'000, "z");
  const auto later = make_incident_id(incident_test::kT0 + 1'000'000'000, "a");
  CHECK(earlier < later);
}

TEST_CASE("Incident ids replace characters outside the charset and bound the rule's length",
          "[incidents]") {
  const auto id = make_incident_id(incident_test::kT0, "../etc/passwd x{y}");
  CHECK(id == "20251130T050000.000Z-___etc_passwd_x_y_");
  CHECK(is_valid_incident_id(id));
  const auto long_id = make_incident_id(incident_test::kT0, std::string(500, 'r'), 99);
  CHECK(long_id.size() <= kMaxIdLength);
  CHECK(is_valid_incident_id(long_id));
}

TEST_CASE("Incident id validation rejects anything that could name another path", "[incidents]") {
  CHECK(is_valid_incident_id("20251130T050000.000Z-cpu"));
  CHECK_FALSE(is_valid_incident_id(""));
  CHECK_FALSE(is_valid_incident_id(".."));
  CHECK_FALSE(is_valid_incident_id("../x"));
  CHECK_FALSE(is_valid_incident_id("a/b"));
  CHECK_FALSE(is_valid_incident_id(".hidden"));
  CHECK_FALSE(is_valid_incident_id("a\\b"));
  CHECK_FALSE(is_valid_incident_id(std::string_view("a\0b", 3)));
  CHECK_FALSE(is_valid_incident_id(std::string(kMaxIdLength + 1, 'a')));
  CHECK(is_valid_incident_id(std::string(kMaxIdLength, 'a')));
}
