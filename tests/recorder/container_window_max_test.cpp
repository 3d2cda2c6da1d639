#include <catch2/catch.hpp>

#include "flightrec/recorder/containers/window_max.h"

using flightrec::recorder::containers::WindowMax;

namespace {
constexpr int64_t kMs = 1'000'000;
constexpr int64_t kWindow = 15'000 * kMs;
}  // namespace

TEST_CASE("shouldHoldNothingBeforeTheFirstValue", "[recorder][containers]") {
  const WindowMax max;
  CHECK_FALSE(max.max(kWindow, kWindow).has_value());
}

TEST_CASE("shouldKeepOneSpikeForTheWholeWindowThenForgetIt", "[recorder][containers]") {
  WindowMax max;
  int64_t t = 0;
  for (; t < 5'000 * kMs; t += 10 * kMs) max.add(t, 0.1, kWindow);
  const int64_t spike_at = t;
  max.add(spike_at, 0.9, kWindow);
  for (t += 10 * kMs; t < spike_at + kWindow - 500 * kMs; t += 10 * kMs) {
    max.add(t, 0.1, kWindow);
  }
  CHECK(*max.max(t, kWindow) == 0.9);
  // A bucket's width (15 s / 32) after the window passed the spike, it is gone.
  for (; t < spike_at + kWindow + kWindow / 32 + 10 * kMs; t += 10 * kMs) max.add(t, 0.1, kWindow);
  CHECK(*max.max(t, kWindow) == 0.1);
}

TEST_CASE("shouldForgetEverythingOnceAWindowPassedWithoutValues", "[recorder][containers]") {
  WindowMax max;
  max.add(0, 0.5, kWindow);
  CHECK(*max.max(kWindow - kMs, kWindow) == 0.5);
  CHECK_FALSE(max.max(kWindow + kMs, kWindow).has_value());
}

TEST_CASE("shouldFollowAShorterWindowAtOnce", "[recorder][containers]") {
  WindowMax max;
  max.add(0, 0.7, kWindow);
  for (int64_t t = 1'000 * kMs; t <= 10'000 * kMs; t += 1'000 * kMs) max.add(t, 0.2, kWindow);
  CHECK(*max.max(10'000 * kMs, kWindow) == 0.7);
  CHECK(*max.max(10'000 * kMs, 5'000 * kMs) == 0.2);
}
