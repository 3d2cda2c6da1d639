#include <catch2/catch.hpp>
#include <vector>

#include "flightrec/sampler/frame_queue.h"
#include "flightrec/sampler/series.h"

using namespace flightrec::sampler;

TEST_CASE("FrameQueue hands frames over whole and in order", "[frame_queue]") {
  FrameQueue queue(3, 4);
  const std::vector<int64_t> a{1, kAbsent, 3};
  const std::vector<int64_t> b{4, 5, -6};
  REQUIRE(queue.push({7, 100, 200}, a));
  REQUIRE(queue.push({8, 101, 201}, b));

  FrameHeader header;
  std::vector<int64_t> got(3);
  REQUIRE(queue.pop(header, got));
  CHECK(header.tick == 7);
  CHECK(header.mono_ns == 100);
  CHECK(header.real_ns == 200);
  CHECK(got == a);
  REQUIRE(queue.pop(header, got));
  CHECK(header.tick == 8);
  CHECK(got == b);
  CHECK_FALSE(queue.pop(header, got));
}

TEST_CASE("FrameQueue refuses a frame that does not fit and keeps the ones it holds",
          "[frame_queue]") {
  FrameQueue queue(2, 2);
  const std::vector<int64_t> v{1, 2};
  REQUIRE(queue.push({1, 0, 0}, v));
  REQUIRE(queue.push({2, 0, 0}, v));
  CHECK_FALSE(queue.push({3, 0, 0}, v));

  FrameHeader header;
  std::vector<int64_t> got(2);
  REQUIRE(queue.pop(header, got));
  CHECK(header.tick == 1);
  REQUIRE(queue.pop(header, got));
  CHECK(header.tick == 2);
  CHECK_FALSE(queue.pop(header, got));
  CHECK(queue.push({4, 0, 0}, v));
}
