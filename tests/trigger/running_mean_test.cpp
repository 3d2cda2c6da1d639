#include "flightrec/trigger/running_mean.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <deque>
#include <limits>
#include <numeric>

using flightrec::trigger::RunningMean;

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
}

TEST_CASE("the mean is unknown until a whole window has been seen, then exact", "[running_mean]") {
  RunningMean mean(4);
  CHECK(std::isnan(mean.add(10, 1)));
  CHECK(std::isnan(mean.add(11, 2)));
  CHECK(std::isnan(mean.add(12, 3)));
  CHECK(mean.add(13, 4) == 2.5);
  CHECK(mean.add(14, 9) == 4.5);  // 2, 3, 4, 9
}

TEST_CASE("unknown values and missed ticks are left out of the mean", "[running_mean]") {
  RunningMean mean(4);
  for (uint64_t tick = 0; tick < 4; ++tick) (void)mean.add(tick, 1);
  CHECK(mean.add(4, kNaN) == 1);                                     // 1, 1, 1
  CHECK(mean.add(5, std::numeric_limits<double>::infinity()) == 1);  // 1, 1
  CHECK(mean.add(7, 4) == 4);             // ticks 4..7: tick 6 was missed, 4 and 5 unknown
  CHECK(std::isnan(mean.add(20, kNaN)));  // a gap longer than the window leaves nothing
  CHECK(mean.add(21, 3) == 3);
}

TEST_CASE("a window longer than the bucket limit is kept in buckets of several ticks",
          "[running_mean]") {
  // 10,000 ticks: 3334 buckets of 3 ticks, so the span averaged is 9,998..10,002 ticks.
  const uint64_t window = 10'000;
  RunningMean mean(window);
  double last = kNaN;
  for (uint64_t tick = 0; tick < 30'100; ++tick) {
    last = mean.add(tick, tick < 20'000 ? 0.0 : 1.0);
    if (tick == 10'010) CHECK(last == 0);
    // Half way through the change the mean is half, to within a bucket of the window.
    if (tick == 24'999) CHECK(last == Approx(0.5).margin(3.0 / window));
    // The zeros are all gone 10,002 ticks after the last of them at the latest.
    if (tick == 29'997) CHECK(last < 1);
  }
  CHECK(last == 1);
}

TEST_CASE("rounding from values that have left the window does not stay in the mean",
          "[running_mean]") {
  // A lap of the ring at 1e15 between laps of small values: subtracting the large values as they
  // leave rounds by tens of units each time, which a running total would keep for ever; the total
  // is summed afresh from the window once per lap, so the small values' mean comes back exact.
  const uint64_t window = 1000;
  RunningMean mean(window);
  std::deque<double> kept;
  double got = kNaN;
  for (uint64_t tick = 0; tick < 5 * window; ++tick) {
    const bool large = tick >= window && tick < 2 * window;
    const double value =
        large ? 1e15 + static_cast<double>(tick) : 0.1 * static_cast<double>(tick % 13);
    got = mean.add(tick, value);
    kept.push_back(value);
    if (kept.size() > window) kept.pop_front();
  }
  const double exact = std::accumulate(kept.begin(), kept.end(), 0.0) / window;
  CHECK(got == Approx(exact).epsilon(1e-12));
}
