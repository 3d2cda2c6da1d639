#include "flightrec/common/log.h"

#include <catch2/catch.hpp>

using namespace flightrec;

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

TEST_CASE("log format escapes control characters so a value cannot reach the terminal", "[log]") {
  CHECK(log::format(log::Level::warn, "bad", {{"path", "a\x1b[2Jb"}}) ==
        R"(level=warn msg=bad path="a\x1b[2Jb")");
  CHECK(log::format(log::Level::warn, "bad", {{"name", "x\x7fy"}}) ==
        R"(level=warn msg=bad name="x\x7fy")");
  CHECK(log::format(log::Level::warn, "bad", {{"text", "one\ntwo\tcaf\xc3\xa9"}}) ==
        "level=warn msg=bad text=\"one\\ntwo\\tcaf\xc3\xa9\"");
}
