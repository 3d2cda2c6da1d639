#include "flightrec/process/pid_stat.h"

#include <catch2/catch.hpp>

#include "temp_dir.h"

using flightrec::process::parse_pid_stat;
using flightrec::testing::fixture_path;
using flightrec::testing::read_file;

namespace {
// Fields 3..24 after the comm, as a sleeping process on this machine printed them.
constexpr const char* kTail =
    " S 1 5192 3159 0 -1 4194304 2877 6546 12 0 250 75 3 0 20 -5 3 0 43811 16961536 3350 "
    "18446744073709551615 0 0\n";
}  // namespace

TEST_CASE("parse_pid_stat reads every field of a real user process", "[pid_stat]") {
  const auto result = parse_pid_stat(read_file(fixture_path("procs-debian12/5198/stat")));
  REQUIRE(result.ok());
  const auto& stat = *result;
  CHECK(stat.pid == 5198);
  CHECK(stat.comm == "python3");
  CHECK(stat.state == 'S');
  CHECK(stat.ppid == 1);
  CHECK(stat.pgrp == 5192);
  CHECK(stat.session == 3159);
  CHECK(stat.tty_nr == 0);
  CHECK(stat.minflt == 2877);
  CHECK(stat.majflt == 0);
  CHECK(stat.utime == 2);
  CHECK(stat.stime == 2);
  CHECK(stat.priority == 20);
  CHECK(stat.nice == 0);
  CHECK(stat.num_threads == 1);
  CHECK(stat.starttime == 43811);
  CHECK(stat.vsize == 16961536);
  CHECK(stat.rss == 3350);
  CHECK_FALSE(stat.is_kernel_thread());
}

TEST_CASE("parse_pid_stat marks kthreadd as a kernel thread", "[pid_stat]") {
  const auto result = parse_pid_stat(read_file(fixture_path("procs-debian12/2/stat")));
  REQUIRE(result.ok());
  CHECK(result->comm == "kthreadd");
  CHECK(result->is_kernel_thread());
  CHECK(result->rss == 0);
}

TEST_CASE("parse_pid_stat finds the fields after the last parenthesis of a comm like '(a) b)'",
          "[pid_stat]") {
  const auto result = parse_pid_stat(read_file(fixture_path("procs-debian12/5383/stat")));
  REQUIRE(result.ok());
  CHECK(result->comm == "(a) b)");
  CHECK(result->state == 'S');
  CHECK(result->ppid == 5381);
  CHECK(result->utime == 4);
  CHECK(result->stime == 1);
}

TEST_CASE("parse_pid_stat keeps newlines and escape bytes inside the comm", "[pid_stat]") {
  const auto result = parse_pid_stat(read_file(fixture_path("procs-debian12/5384/stat")));
  REQUIRE(result.ok());
  CHECK(result->comm == "esc\x1b[31m\nred");
  CHECK(result->utime == 7);
}

TEST_CASE("parse_pid_stat reads a comm of spaces and parentheses and a negative nice",
          "[pid_stat]") {
  const auto result = parse_pid_stat(std::string("77 () ) (x ) ") + kTail);
  REQUIRE(result.ok());
  CHECK(result->comm == ") ) (x ");
  CHECK(result->nice == -5);
  CHECK(result->num_threads == 3);
  CHECK(result->majflt == 12);
  CHECK(result->utime == 250);
  CHECK(result->stime == 75);
}

TEST_CASE("parse_pid_stat reports a line cut before the rss field as truncated", "[pid_stat]") {
  const std::string full = std::string("9 (cut)") + kTail;
  const auto result = parse_pid_stat(full.substr(0, full.find(" 16961536")));
  REQUIRE_FALSE(result.ok());
  CHECK_THAT(result.error(), Catch::Matchers::Contains("truncated"));
}

TEST_CASE("parse_pid_stat names the field that is not a number", "[pid_stat]") {
  std::string line = std::string("9 (x)") + kTail;
  line.replace(line.find(" 250 "), 5, " 2x0 ");
  const auto result = parse_pid_stat(line);
  REQUIRE_FALSE(result.ok());
  CHECK_THAT(result.error(), Catch::Matchers::Contains("field 14 (utime)"));
  CHECK_THAT(result.error(), Catch::Matchers::Contains("2x0"));
}

TEST_CASE("parse_pid_stat rejects a negative count and an out-of-range pid", "[pid_stat]") {
  std::string negative = std::string("9 (x)") + kTail;
  negative.replace(negative.find(" 2877 "), 6, " -2877 ");
  CHECK_THAT(parse_pid_stat(negative).error(), Catch::Matchers::Contains("field 10 (minflt)"));
  CHECK_THAT(parse_pid_stat(std::string("99999999999 (x)") + kTail).error(),
             Catch::Matchers::Contains("pid"));
}

TEST_CASE("parse_pid_stat rejects text without a parenthesised comm", "[pid_stat]") {
  CHECK_FALSE(parse_pid_stat("").ok());
  CHECK_FALSE(parse_pid_stat("12 sleep S 1 2 3").ok());
  CHECK_FALSE(parse_pid_stat("12 )sleep( S 1 2 3").ok());
}

TEST_CASE("parse_pid_stat rejects a state longer than one character", "[pid_stat]") {
  std::string line = std::string("9 (x)") + kTail;
  line.replace(line.find(" S "), 3, " SS ");
  CHECK_THAT(parse_pid_stat(line).error(), Catch::Matchers::Contains("field 3 (state)"));
}
