#include "flightrec/recorder/heap_trim.h"

#include <catch2/catch.hpp>

using flightrec::recorder::HeapTrim;

namespace {

const HeapTrim::Clock::time_point kStart{};

HeapTrim::Clock::time_point at_seconds(int seconds) {
  return kStart + std::chrono::seconds(seconds);
}

// The daemon's holders with their default spans, about: the /metrics window, the ring.
HeapTrim default_holds() {
  return HeapTrim({{.after = std::chrono::seconds(18), .what = "the /metrics window let them go"},
                   {.after = std::chrono::seconds(634), .what = "the process ring let them go"}});
}

}  // namespace

TEST_CASE("shouldTrimWhenTheProcessesFallThenAsEachHolderLetsThemGo", "[recorder][heap_trim]") {
  HeapTrim trim = default_holds();
  CHECK(trim.due(300, at_seconds(0)).empty());
  CHECK(trim.due(5300, at_seconds(1)).empty());  // a burst
  CHECK(trim.due(3000, at_seconds(2)).empty());  // fewer, but not half
  CHECK(trim.due(300, at_seconds(3)) == "the processes fell");
  CHECK(trim.due(300, at_seconds(4)).empty());
  CHECK(trim.due(300, at_seconds(20)).empty());
  CHECK(trim.due(300, at_seconds(21)) == "the /metrics window let them go");
  CHECK(trim.due(300, at_seconds(600)).empty());
  CHECK(trim.due(300, at_seconds(637)) == "the process ring let them go");
  CHECK(trim.due(300, at_seconds(5000)).empty());  // and no more
}

TEST_CASE("shouldNotTrimForSmallFallsOrGrowth", "[recorder][heap_trim]") {
  HeapTrim trim = default_holds();
  // Halved, but by fewer than kMinRows: not worth a walk of the heap.
  CHECK(trim.due(1800, at_seconds(0)).empty());
  CHECK(trim.due(900, at_seconds(1)).empty());
  for (int s = 2; s < 700; ++s) CHECK(trim.due(900 + uint64_t(s) * 10, at_seconds(s)).empty());
}

TEST_CASE("shouldTrimAtMostOncePerIntervalAndLetALaterFallReplaceTheTrimsDue",
          "[recorder][heap_trim]") {
  HeapTrim trim = default_holds();
  static_cast<void>(trim.due(8000, at_seconds(0)));
  CHECK(trim.due(2000, at_seconds(1)) == "the processes fell");
  static_cast<void>(trim.due(8000, at_seconds(2)));
  // A second fall within kMinInterval of the trim: due, deferred, not lost.
  CHECK(trim.due(2000, at_seconds(3)).empty());
  CHECK(trim.due(2000, at_seconds(10)).empty());
  CHECK(trim.due(2000, at_seconds(11)) == "the processes fell");
  // The holders' trims count from the second fall.
  CHECK(trim.due(2000, at_seconds(20)).empty());
  CHECK(trim.due(2000, at_seconds(21)) == "the /metrics window let them go");
}

TEST_CASE("shouldTrimOnceForSeveralTrimsDueTogether", "[recorder][heap_trim]") {
  HeapTrim trim({{.after = std::chrono::seconds(5), .what = "a"},
                 {.after = std::chrono::seconds(6), .what = "b"}});
  static_cast<void>(trim.due(5000, at_seconds(0)));
  CHECK(trim.due(100, at_seconds(1)) == "the processes fell");
  // The next tick comes late, past both holders (and the interval).
  CHECK(trim.due(100, at_seconds(30)) == "b");
  CHECK(trim.due(100, at_seconds(60)).empty());
}
