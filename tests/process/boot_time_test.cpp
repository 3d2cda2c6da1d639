#include "flightrec/process/boot_time.h"

#include <catch2/catch.hpp>

#include "temp_dir.h"

using flightrec::process::parse_boot_time;
using flightrec::testing::fixture_path;
using flightrec::testing::read_file;

TEST_CASE("parse_boot_time reads btime from a real /proc/stat", "[boot_time]") {
  CHECK(parse_boot_time(read_file(fixture_path("procs-debian12/stat"))) == 1796011918);
}

TEST_CASE("parse_boot_time rejects a missing or malformed btime", "[boot_time]") {
  CHECK_FALSE(parse_boot_time("cpu  1 2 3\nctxt 5\n").has_value());
  CHECK_FALSE(parse_boot_time("btime soon\n").has_value());
  CHECK_FALSE(parse_boot_time("xbtime 12\n").has_value());
  CHECK(parse_boot_time("ctxt 5\nbtime 12") == 12);
}
