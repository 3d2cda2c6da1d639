#include "flightrec/config/units.h"

#include <catch2/catch.hpp>

using flightrec::config::Duration;
using flightrec::config::format_duration;
using flightrec::config::format_percent_ppm;
using flightrec::config::format_size;
using flightrec::config::parse_duration;
using flightrec::config::parse_percent_ppm;
using flightrec::config::parse_size;
using namespace std::chrono_literals;

TEST_CASE("parse_duration accepts single units from ns to h", "[units]") {
  CHECK(parse_duration("7ns") == Duration(7ns));
  CHECK(parse_duration("250us") == Duration(250us));
  CHECK(parse_duration("250\u00b5s") == Duration(250us));
  CHECK(parse_duration("1ms") == Duration(1ms));
  CHECK(parse_duration("2s") == Duration(2s));
  CHECK(parse_duration("10m") == Duration(10min));
  CHECK(parse_duration("1h") == Duration(1h));
  CHECK(parse_duration("0") == Duration(0));
}

TEST_CASE("parse_duration accepts combinations and exact fractions", "[units]") {
  CHECK(parse_duration("1m30s") == Duration(90s));
  CHECK(parse_duration("1h2m3s4ms") == Duration(1h + 2min + 3s + 4ms));
  CHECK(parse_duration("1.5s") == Duration(1500ms));
  CHECK(parse_duration("0.25ms") == Duration(250us));
  CHECK(parse_duration("1.5h") == Duration(90min));
}

TEST_CASE("parse_duration rejects typos, missing units and disordered parts", "[units]") {
  for (const char* bad :
       {"",     "1xs",   "1",     "ms",    "1 ms",  " 1ms", "1ms ",          "-1ms",
        "+1ms", "1.ms",  ".5s",   "1.5ns", "30s1m", "1s1s", "1s500ms1ms2ms", "1msx",
        "1S",   "1e3ms", "0x10s", "1,5s"}) {
    INFO("input: " << bad);
    CHECK_FALSE(parse_duration(bad).has_value());
  }
}

TEST_CASE("parse_duration rejects values beyond the nanosecond range instead of wrapping",
          "[units]") {
  CHECK(parse_duration("2562047h") == Duration(2562047h));
  CHECK_FALSE(parse_duration("2562048h").has_value());
  CHECK_FALSE(parse_duration("99999999999999999999999999999s").has_value());
}

TEST_CASE("parse_size accepts bytes, binary and decimal units", "[units]") {
  CHECK(parse_size("1000000") == 1000000u);
  CHECK(parse_size("17B") == 17u);
  CHECK(parse_size("512KiB") == 512u * 1024);
  CHECK(parse_size("256MiB") == 256ull << 20);
  CHECK(parse_size("1GiB") == 1ull << 30);
  CHECK(parse_size("2TiB") == 2ull << 40);
  CHECK(parse_size("1KB") == 1000u);
  CHECK(parse_size("1MB") == 1000000u);
  CHECK(parse_size("1GB") == 1000000000u);
  CHECK(parse_size("1.5KiB") == 1536u);
}

TEST_CASE("parse_size rejects unknown units, partial bytes and overflow", "[units]") {
  for (const char* bad : {"", "MiB", "1XB", "1mib", "1 MiB", "-1", "1.5", "0.1B", "1.KiB",
                          "18446744073709551616", "16777216TiB", "1MiBs"}) {
    INFO("input: " << bad);
    CHECK_FALSE(parse_size(bad).has_value());
  }
  CHECK(parse_size("18446744073709551615") == 18446744073709551615ull);
}

TEST_CASE("format_duration picks the readable canonical spelling", "[units]") {
  CHECK(format_duration(0ns) == "0s");
  CHECK(format_duration(7ns) == "7ns");
  CHECK(format_duration(250us) == "250us");
  CHECK(format_duration(1500us) == "1.5ms");
  CHECK(format_duration(1ms) == "1ms");
  CHECK(format_duration(1500ms) == "1.5s");
  CHECK(format_duration(90s) == "1m30s");
  CHECK(format_duration(10min) == "10m");
  CHECK(format_duration(24h) == "24h");
  CHECK(format_duration(1h + 1ms) == "1h0.001s");
  CHECK(format_duration(-2ms) == "-2ms");
}

TEST_CASE("format_size uses the largest unit that divides exactly", "[units]") {
  CHECK(format_size(0) == "0B");
  CHECK(format_size(1) == "1B");
  CHECK(format_size(256ull << 20) == "256MiB");
  CHECK(format_size(64ull << 30) == "64GiB");
  CHECK(format_size(1536) == "1536B");
  CHECK(format_size(1000000) == "1MB");
  CHECK(format_size(1000001) == "1000001B");
}

TEST_CASE("formatted durations and sizes parse back to the same value", "[units]") {
  // A spread of values across every unit boundary, including ones with no short spelling.
  for (int64_t ns : {int64_t{1}, int64_t{999}, int64_t{1'001}, int64_t{123'456'789},
                     int64_t{59'999'999'999}, int64_t{3'600'000'000'001},
                     int64_t{86'400'000'000'000}, std::numeric_limits<int64_t>::max()}) {
    INFO("ns: " << ns);
    CHECK(parse_duration(format_duration(Duration(ns))) == Duration(ns));
  }
  for (uint64_t bytes : {uint64_t{1}, uint64_t{1023}, uint64_t{1024}, uint64_t{1000},
                         uint64_t{3} << 40, uint64_t{999'999'999'999}, ~uint64_t{0}}) {
    INFO("bytes: " << bytes);
    CHECK(parse_size(format_size(bytes)) == bytes);
  }
}

TEST_CASE("parse_percent_ppm keeps percentages exactly in millionths", "[units]") {
  CHECK(parse_percent_ppm("10%") == 100'000u);
  CHECK(parse_percent_ppm("0.1%") == 1'000u);
  CHECK(parse_percent_ppm("2.5%") == 25'000u);
  CHECK(parse_percent_ppm("0.0001%") == 1u);
  CHECK(parse_percent_ppm("400%") == 4'000'000u);
  CHECK(parse_percent_ppm("0") == 0u);
  CHECK(parse_percent_ppm("0%") == 0u);
  for (const char* bad :
       {"", "%", "10", "0.1", "10 %", "10%%", "-1%", "1.%", "0.00001%", "1e3%", "500000%"}) {
    INFO("text: " << bad);
    CHECK_FALSE(parse_percent_ppm(bad).has_value());
  }
}

TEST_CASE("formatted percentages parse back to the same value", "[units]") {
  CHECK(format_percent_ppm(100'000) == "10%");
  CHECK(format_percent_ppm(2'500) == "0.25%");
  CHECK(format_percent_ppm(0) == "0%");
  for (uint64_t ppm : {uint64_t{1}, uint64_t{999}, uint64_t{10'000}, uint64_t{123'457}}) {
    INFO("ppm: " << ppm);
    CHECK(parse_percent_ppm(format_percent_ppm(ppm)) == ppm);
  }
}
