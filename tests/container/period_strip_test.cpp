// The period strip and refill counting: episodes laid on a group's CFS periods.
#include <catch2/catch.hpp>
#include <vector>

#include "flightrec/container/throttle/throttle_episodes.h"

using namespace flightrec::container;

namespace {

constexpr int64_t kMs = 1'000'000;

ThrottleEpisode episode(int64_t start_ms, int64_t end_ms) {
  ThrottleEpisode e;
  e.start_ns = start_ms * kMs;
  e.end_ns = end_ms * kMs;
  return e;
}

// Periods of 100 ms with refills at ..., 0, 100, 200, ... ms.
constexpr PeriodGrid kGrid{.period_ns = 100 * kMs, .anchor_ns = 1000 * kMs};

}  // namespace

TEST_CASE("shouldCountTheRefillsAThrottleWaitedFor", "[container][period_strip]") {
  CHECK(refills_within(20 * kMs, 100 * kMs, kGrid) == 1);   // ended by the refill at 100
  CHECK(refills_within(20 * kMs, 99 * kMs, kGrid) == 0);    // ended before it (slack)
  CHECK(refills_within(100 * kMs, 150 * kMs, kGrid) == 0);  // began at a refill: not after it
  CHECK(refills_within(20 * kMs, 300 * kMs + 30'000, kGrid) == 3);
  CHECK(refills_within(-150 * kMs, -50 * kMs, kGrid) == 1);  // the grid goes on before the anchor
  CHECK(refills_within(50 * kMs, 20 * kMs, kGrid) == 0);
  CHECK(refills_within(20 * kMs, 100 * kMs, PeriodGrid{.period_ns = 0}) == 0);
}

TEST_CASE("shouldGiveEachPeriodItsThrottledTime", "[container][period_strip]") {
  // Throttled 80 ms in the first period, none in the second, 60 ms in the third and, by the
  // refill's lateness, 30 us in the fourth.
  const std::vector<ThrottleEpisode> episodes{episode(20, 100), episode(240, 300)};
  std::vector<ThrottleEpisode> late = episodes;
  late[1].end_ns += 30'000;
  auto strip = period_strip(late, kGrid, 0, 400 * kMs);
  REQUIRE(strip);
  REQUIRE(strip->size() == 4);
  CHECK((*strip)[0].start_ns == 0);
  CHECK((*strip)[0].throttled_ns == 80 * kMs);
  CHECK((*strip)[0].throttled);
  CHECK((*strip)[1].start_ns == 100 * kMs);
  CHECK((*strip)[1].throttled_ns == 0);
  CHECK_FALSE((*strip)[1].throttled);
  CHECK((*strip)[2].throttled_ns == 60 * kMs);
  CHECK((*strip)[2].throttled);
  CHECK((*strip)[3].throttled_ns == 30'000);
  CHECK_FALSE((*strip)[3].throttled);  // the refill's lateness is not a throttle of its own
}

TEST_CASE("shouldMarkEveryPeriodALongThrottleWaitedThrough", "[container][period_strip]") {
  // Deep in debt: throttled from 50 ms until the refill at 300 ms.
  const std::vector<ThrottleEpisode> episodes{episode(50, 300)};
  auto strip = period_strip(episodes, kGrid, 0, 400 * kMs);
  REQUIRE(strip);
  REQUIRE(strip->size() == 4);
  CHECK((*strip)[0].throttled_ns == 50 * kMs);
  CHECK((*strip)[1].throttled_ns == 100 * kMs);
  CHECK((*strip)[2].throttled_ns == 100 * kMs);
  CHECK((*strip)[3].throttled_ns == 0);
  CHECK(((*strip)[0].throttled && (*strip)[1].throttled && (*strip)[2].throttled));
  CHECK_FALSE((*strip)[3].throttled);
}

TEST_CASE("shouldCountOverlappingEpisodesOnceInWallTime", "[container][period_strip]") {
  // Two groups' worth of episodes handed in together still give wall time, not a sum.
  const std::vector<ThrottleEpisode> episodes{episode(20, 100), episode(40, 100)};
  auto strip = period_strip(episodes, kGrid, 0, 100 * kMs);
  REQUIRE(strip);
  REQUIRE(strip->size() == 1);
  CHECK((*strip)[0].throttled_ns == 80 * kMs);
}

TEST_CASE("shouldAlignTheWindowToThePeriods", "[container][period_strip]") {
  // A window from 150 ms to 250 ms touches the periods starting at 100 and 200 ms; the episode
  // parts outside it still count in the periods it touches.
  const std::vector<ThrottleEpisode> episodes{episode(120, 230)};
  auto strip = period_strip(episodes, kGrid, 150 * kMs, 250 * kMs);
  REQUIRE(strip);
  REQUIRE(strip->size() == 2);
  CHECK((*strip)[0].start_ns == 100 * kMs);
  CHECK((*strip)[0].throttled_ns == 80 * kMs);
  CHECK((*strip)[1].start_ns == 200 * kMs);
  CHECK((*strip)[1].throttled_ns == 30 * kMs);
  CHECK((*strip)[0].throttled);
  CHECK_FALSE((*strip)[1].throttled);  // it did not last until that period's refill
  auto empty = period_strip(episodes, kGrid, 150 * kMs, 150 * kMs);
  REQUIRE(empty);
  CHECK(empty->empty());
}

TEST_CASE("shouldRefuseAStripItCannotBuild", "[container][period_strip]") {
  const std::vector<ThrottleEpisode> none;
  auto zero = period_strip(none, PeriodGrid{.period_ns = 0}, 0, kMs);
  REQUIRE_FALSE(zero);
  CHECK(zero.error() == "period strip: the period must be positive, not 0 ns");
  auto backwards = period_strip(none, kGrid, 5, 4);
  REQUIRE_FALSE(backwards);
  CHECK(backwards.error() == "period strip: the window ends (4 ns) before it starts (5 ns)");
  auto huge = period_strip(none, PeriodGrid{.period_ns = 1}, 0, 2'000'000);
  REQUIRE_FALSE(huge);
  CHECK(huge.error() ==
        "period strip: the window holds 2000000 periods of 1 ns, more than 1000000");
}
