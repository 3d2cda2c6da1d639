#include "flightrec/recording/time_param.h"

#include <catch2/catch.hpp>

#include "flightrec/common/time_format.h"

using namespace flightrec::recording;
using flightrec::parse_rfc3339_ns;

namespace {
constexpr int64_t kNow = 1'764'478'800'000'000'000;  // 2025-11-30T05:00:00Z
constexpr int64_t kS = 1'000'000'000;
}  // namespace

TEST_CASE("Times in every accepted form", "[time]") {
  const auto [text, expected] = GENERATE(table<const char*, int64_t>({
      {"now", kNow},
      {"2025-11-30T05:00:00Z", kNow},
      {"2025-11-30t05:00:00z", kNow},
      {"2025-11-30 05:00:00Z", kNow},
      {"2025-11-30T05:00:00.25Z", kNow + kS / 4},
      {"2025-11-30T05:00:00.123456789Z", kNow + 123'456'789},
      {"2025-11-30T06:30:00+01:30", kNow},
      {"2025-11-30T06:30:00 01:30", kNow},  // '+' decoded from a URL query as a space
      {"2025-11-30T04:00:00-01:00", kNow},
      {"2024-02-29T00:00:00Z", 1'709'164'800 * kS},
      {"1970-01-01T00:00:00Z", 0},
      {"1764478800", kNow},
      {"1764478800.25", kNow + kS / 4},
      {"-30s", kNow - 30 * kS},
      {"-5m", kNow - 300 * kS},
      {"-1h30m", kNow - 5400 * kS},
      {"-250ms", kNow - kS / 4},
      {"-1.5s", kNow - 3 * kS / 2},
      {"-1d", kNow - 86400 * kS},
  }));
  INFO(text);
  const auto parsed = parse_time_param("from", text, kNow);
  CHECK(parsed.error.empty());
  CHECK(parsed.real_ns == expected);
}

TEST_CASE("Texts that are not times, each with its message", "[time]") {
  const auto [text, message] = GENERATE(table<const char*, const char*>({
      {"yesterday",
       "from: \"yesterday\" is not a time (examples: 2026-11-30T05:00:00Z, 1764478800, -30s)"},
      {"", "from: \"\" is not a time (examples: 2026-11-30T05:00:00Z, 1764478800, -30s)"},
      {"-30", "from: \"-30\" is not a time (examples: 2026-11-30T05:00:00Z, 1764478800, -30s)"},
      {"-30x", "from: \"-30x\" is not a time (examples: 2026-11-30T05:00:00Z, 1764478800, -30s)"},
      {"-", "from: \"-\" is not a time (examples: 2026-11-30T05:00:00Z, 1764478800, -30s)"},
      {"12abc", "from: \"12abc\" is not a time (examples: 2026-11-30T05:00:00Z, 1764478800, -30s)"},
      {"1.", "from: \"1.\" is not a time (examples: 2026-11-30T05:00:00Z, 1764478800, -30s)"},
      {"1.1234567891",
       "from: \"1.1234567891\" is not a time (fraction out of range: at most 9 digits "
       "(nanoseconds))"},
      {"2025-11-30T05:00:00",
       "from: \"2025-11-30T05:00:00\" is not a time (examples: 2026-11-30T05:00:00Z, 1764478800, "
       "-30s)"},
      {"2025-11-30T05:00Z",
       "from: \"2025-11-30T05:00Z\" is not a time (examples: 2026-11-30T05:00:00Z, 1764478800, "
       "-30s)"},
      {"2025-13-01T00:00:00Z",
       "from: \"2025-13-01T00:00:00Z\" is not a time (month 13 out of range)"},
      {"2025-02-29T00:00:00Z",
       "from: \"2025-02-29T00:00:00Z\" is not a time (day 29 out of range for the month)"},
      {"2025-11-30T24:00:00Z",
       "from: \"2025-11-30T24:00:00Z\" is not a time (time of day out of range)"},
      {"2025-11-30T05:00:00+25:00",
       "from: \"2025-11-30T05:00:00+25:00\" is not a time (offset out of range)"},
      {"99999999999999999999",
       "from: \"99999999999999999999\" is not a time (out of range: times run from "
       "1677-09-21T00:12:45Z to 2262-04-11T23:47:15Z)"},
      {"-999999999d", "from: \"-999999999d\" is not a time (out of range)"},
      {"-1s1s", "from: \"-1s1s\" is not a time (units must decrease, e.g. -1h30m)"},
      {"-30s1m", "from: \"-30s1m\" is not a time (units must decrease, e.g. -1h30m)"},
      {"-1s\x1b[2J",
       "from: \"-1s\\x1b[2J\" is not a time (examples: 2026-11-30T05:00:00Z, "
       "1764478800, -30s)"},
  }));
  INFO(text);
  CHECK(parse_time_param("from", text, kNow).error == message);
}

TEST_CASE("Valid RFC 3339 times int64 nanoseconds cannot hold are out of range, not malformed",
          "[time]") {
  const std::string range =
      "out of range: times run from 1677-09-21T00:12:45Z to "
      "2262-04-11T23:47:15Z";
  const std::string fraction = "fraction out of range: at most 9 digits (nanoseconds)";
  const auto [text, reason] = GENERATE_COPY(table<std::string, std::string>({
      {"9999-12-31T23:59:59Z", range},
      {"0000-01-01T00:00:00Z", range},
      {"2262-04-11T23:47:16Z", range},
      {"1677-09-21T00:12:44Z", range},
      {"2262-04-11T23:47:15-00:01", range},  // the offset pushes it past the end
      {"1677-09-21T00:12:45+00:01", range},  // and before the start
      {"9223372036", range},
      {"2026-11-30T05:00:00.1234567890Z", fraction},
      {"2026-11-30T05:00:00." + std::string(200, '1') + "Z", fraction},
  }));
  INFO(text);
  const auto parsed = parse_time_param("to", text, kNow);
  CHECK(parsed.error == "to: \"" + text + "\" is not a time (" + reason + ")");
  CHECK(parsed.reason == reason);
  if (text.size() > 4 && text[4] == '-') {
    std::string why;
    CHECK_FALSE(parse_rfc3339_ns(text, &why));
    CHECK(why == reason);
  }
}

TEST_CASE("The range's ends are times", "[time]") {
  CHECK(parse_time_param("to", "2262-04-11T23:47:15.999999999Z", kNow).ok());
  CHECK(parse_time_param("to", "1677-09-21T00:12:45Z", kNow).ok());
  CHECK(parse_time_param("to", "9223372035", kNow).ok());
  CHECK(parse_time_param("to", "yesterday", kNow).reason.empty());
}

TEST_CASE("The error names the parameter it came from", "[time]") {
  CHECK_THAT(parse_time_param("to", "soon", kNow).error,
             Catch::Matchers::StartsWith("to: \"soon\""));
}
