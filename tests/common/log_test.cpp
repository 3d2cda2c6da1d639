#include <catch2/catch.hpp>

#include "flightrec/common/log.h"

using namespace flightrec;

TEST_CASE("log format quotes values with spaces and escapes quotes", "[log]") {
  const auto line = log::format(log::Level::warn, "source skipped",
                                {{"source", "pressure"}, {"reason", "no \"PSI\" here"}});
  CHECK(line == R"(level=warn msg="source skipped" source=pressure reason="no \"PSI\" here")");
}

TEST_CASE("log format leaves plain values bare and quotes empty ones", "[log]") {
  CHECK(log::format(log::Level::info, "listening", {{"url", "http://127.0.0.1:9717/"}, {"x", ""}}) ==
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
