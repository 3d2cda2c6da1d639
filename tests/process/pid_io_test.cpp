#include "flightrec/process/pid_io.h"

#include <catch2/catch.hpp>
#include <string>

#include "temp_dir.h"

using flightrec::process::parse_pid_io;
using flightrec::process::PidIo;

namespace {
std::string tier_file(const std::string& relative) {
  return flightrec::testing::read_file(flightrec::testing::fixture_path("procs-tier") / relative);
}
}  // namespace

TEST_CASE("parse_pid_io keeps storage read and write bytes, not rchar and wchar", "[pid_io]") {
  const auto io = parse_pid_io(tier_file("5198/io"));
  REQUIRE(io.ok());
  CHECK(io->read_bytes == 7340032U);
  CHECK(io->write_bytes == 1052672U);
}

TEST_CASE("parse_pid_io leaves a key the kernel did not print empty", "[pid_io]") {
  const auto io = parse_pid_io("rchar: 10\nwrite_bytes: 5\n");
  REQUIRE(io.ok());
  CHECK_FALSE(io->read_bytes.has_value());
  CHECK(io->write_bytes == 5U);

  const auto empty = parse_pid_io("");
  REQUIRE(empty.ok());
  CHECK(*empty == PidIo{});
}

TEST_CASE("parse_pid_io reads a last line without a newline", "[pid_io]") {
  const auto io = parse_pid_io("read_bytes: 1\nwrite_bytes: 18446744073709551615");
  REQUIRE(io.ok());
  CHECK(io->write_bytes == 18446744073709551615U);
}

TEST_CASE("parse_pid_io names the line of a malformed value", "[pid_io]") {
  const auto io = parse_pid_io("rchar: 1\nread_bytes: 12x\n");
  REQUIRE_FALSE(io.ok());
  CHECK_THAT(io.error(), Catch::Matchers::Contains("line 2"));
  CHECK_THAT(io.error(), Catch::Matchers::Contains("read_bytes"));
  CHECK_THAT(io.error(), Catch::Matchers::Contains("12x"));

  CHECK_FALSE(parse_pid_io("write_bytes: -1\n").ok());
  CHECK_FALSE(parse_pid_io("write_bytes:\n").ok());
}
