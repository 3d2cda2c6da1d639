#include "flightrec/sampler/cpu_list.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

using flightrec::sampler::parse_cpu_list;

TEST_CASE("A kernel CPU list gives its ids in order, ranges expanded", "[cpu_list]") {
  auto ids = parse_cpu_list("0-3,6,8-9\n", 1023);
  REQUIRE(ids);
  CHECK(*ids == std::vector<uint32_t>{0, 1, 2, 3, 6, 8, 9});
  ids = parse_cpu_list("0", 1023);
  REQUIRE(ids);
  CHECK(*ids == std::vector<uint32_t>{0});
  // Out of order and overlapping (the kernel never writes it so, a hand-made file might).
  ids = parse_cpu_list("5,1-2,2", 1023);
  REQUIRE(ids);
  CHECK(*ids == std::vector<uint32_t>{1, 2, 5});
}

TEST_CASE("A malformed CPU list or an id above the limit is refused, saying what", "[cpu_list]") {
  auto ids = parse_cpu_list("", 1023);
  CHECK_FALSE(ids);
  CHECK(ids.error() == "no CPU ids");
  ids = parse_cpu_list("0-3,x", 1023);
  CHECK_FALSE(ids);
  CHECK(ids.error() == "\"x\" is not a CPU id or range");
  ids = parse_cpu_list("3-1", 1023);
  CHECK_FALSE(ids);
  CHECK(ids.error() == "\"3-1\" is not a CPU id or range");
  ids = parse_cpu_list("0,,1", 1023);
  CHECK_FALSE(ids);
  CHECK(ids.error() == "\"\" is not a CPU id or range");
  CHECK_FALSE(parse_cpu_list("-1", 1023));
  CHECK_FALSE(parse_cpu_list("0-4294967296", 1023));
  ids = parse_cpu_list("0-1024", 1023);
  CHECK_FALSE(ids);
  CHECK(ids.error() == "CPU id 1024 is above 1023");
}
