#include "flightrec/model/value_text.h"

#include <catch2/catch.hpp>
#include <limits>

using flightrec::model::bytes_text;
using flightrec::model::value_text;

TEST_CASE("value_text reads a value in the unit its series name ends with", "[value_text]") {
  CHECK(value_text("memory_used_bytes", 2168508416) == "2.02 GiB");
  CHECK(value_text("cpu_busy_ratio{cpu=\"total\"}", 0.93) == "93.0%");
  CHECK(value_text("network_receive_bytes_per_second{device=\"eth0\"}", 1572864) == "1.50 MiB/s");
  CHECK(value_text("oom_kills_per_second", 250) == "250/s");
  CHECK(value_text("boot_delay_seconds", 883.0600000000001) == "883.1 s");
  CHECK(value_text("load1", 0.7000000000000001) == "0.7");
  CHECK(value_text("", 2168508416) == "2168508416");  // no unit known: plain, never 2.16851e+09
  CHECK(value_text("processes", 12.345678) == "12.3457");
}

TEST_CASE("value_text writes '-' where nothing was measured", "[value_text]") {
  CHECK(value_text("cpu_busy_ratio", std::numeric_limits<double>::quiet_NaN()) == "-");
  CHECK(value_text("", std::numeric_limits<double>::infinity()) == "-");
}

TEST_CASE("bytes_text keeps three significant digits in binary units", "[value_text]") {
  CHECK(bytes_text(0) == "0 B");
  CHECK(bytes_text(1023) == "1023 B");
  CHECK(bytes_text(1024) == "1.00 KiB");
  CHECK(bytes_text(15.5 * 1024 * 1024) == "15.5 MiB");
  CHECK(bytes_text(1023.9 * 1024) == "1.00 MiB");  // never "1024 KiB"
  CHECK(bytes_text(300.0 * (1ull << 30)) == "300 GiB");
  CHECK(bytes_text(-2048) == "-2.00 KiB");
}
