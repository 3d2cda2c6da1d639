#include "flightrec/common/log.h"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <string>
#include <utility>

#include "flightrec/common/clock.h"
#include "flightrec/common/time_format.h"

using namespace flightrec;

namespace {

// What log::write puts on stderr for one record, read back from a temporary file.
std::string logged_line(log::Level level, std::string_view msg) {
  std::FILE* file = std::tmpfile();
  REQUIRE(file != nullptr);
  const int saved_stderr = ::dup(STDERR_FILENO);
  ::dup2(::fileno(file), STDERR_FILENO);
  log::write(level, msg);
  ::dup2(saved_stderr, STDERR_FILENO);
  ::close(saved_stderr);
  std::rewind(file);
  std::string line(256, '\0');
  line.resize(std::fread(line.data(), 1, line.size(), file));
  std::fclose(file);
  return line;
}

}  // namespace

TEST_CASE("log format quotes values with spaces and escapes quotes", "[log]") {
  const auto line = log::format(log::Level::warn, "source skipped",
                                {{"source", "pressure"}, {"reason", "no \"PSI\" here"}});
  CHECK(line == R"(level=warn msg="source skipped" source=pressure reason="no \"PSI\" here")");
}

TEST_CASE("log format leaves plain values bare and quotes empty ones", "[log]") {
  CHECK(
      log::format(log::Level::info, "listening", {{"url", "http://127.0.0.1:9717/"}, {"x", ""}}) ==
      R"(level=info msg=listening url=http://127.0.0.1:9717/ x="")");
}

TEST_CASE("log levels parse and filter", "[log]") {
  CHECK(log::parse_level("debug") == log::Level::debug);
  CHECK_FALSE(log::parse_level("verbose").has_value());
  log::set_level(log::Level::warn);
  CHECK_FALSE(log::enabled(log::Level::info));
  CHECK(log::enabled(log::Level::error));
  log::set_level(log::Level::info);
}

TEST_CASE("every log level is written by the name --log.level takes", "[log]") {
  // The names come from one table: each is printed and parsed back to its level.
  for (const auto& [level, name] :
       {std::pair{log::Level::debug, "debug"}, std::pair{log::Level::info, "info"},
        std::pair{log::Level::warn, "warn"}, std::pair{log::Level::error, "error"}}) {
    CHECK(log::format(level, "m", {}) == "level=" + std::string(name) + " msg=m");
    CHECK(log::parse_level(name) == level);
  }
}

TEST_CASE("log format escapes control characters so a value cannot reach the terminal", "[log]") {
  CHECK(log::format(log::Level::warn, "bad", {{"path", "a\x1b[2Jb"}}) ==
        R"(level=warn msg=bad path="a\x1b[2Jb")");
  CHECK(log::format(log::Level::warn, "bad", {{"name", "x\x7fy"}}) ==
        R"(level=warn msg=bad name="x\x7fy")");
  CHECK(log::format(log::Level::warn, "bad", {{"text", "one\ntwo\tcaf\xc3\xa9"}}) ==
        "level=warn msg=bad text=\"one\\ntwo\\tcaf\xc3\xa9\"");
}

TEST_CASE("log format writes a value that is not UTF-8 quoted and escaped", "[log]") {
  // A manual trigger's reason arrives URL-decoded: %FF is a raw 0xFF byte, even without a space.
  CHECK(log::format(log::Level::info, "manual incident requested", {{"reason", "disk\xff"}}) ==
        R"(level=info msg="manual incident requested" reason="disk\xff")");
  CHECK(log::format(log::Level::info, "m",
                    {{"comm",
                      "\xc2\x9b"
                      "2J"}}) == R"(level=info msg=m comm="\xc2\x9b2J")");
  CHECK(log::format(log::Level::info, "m", {{"name", "caf\xc3\xa9"}}) ==
        "level=info msg=m name=caf\xc3\xa9");
}

TEST_CASE("log lines start with the time in RFC 3339, UTC, to the millisecond", "[log]") {
  const int64_t before_ns = clock_ns(CLOCK_REALTIME);
  const std::string line = logged_line(log::Level::warn, "hello");
  const int64_t after_ns = clock_ns(CLOCK_REALTIME);
  CHECK_THAT(line, Catch::Matchers::Matches(
                       R"(ts=\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z level=warn msg=hello\n)"));
  const auto logged_ns = parse_rfc3339_ns(line.substr(3, 24));
  REQUIRE(logged_ns.has_value());
  CHECK(*logged_ns >= before_ns / 1'000'000 * 1'000'000);  // the time, floored to the millisecond
  CHECK(*logged_ns <= after_ns);
}
