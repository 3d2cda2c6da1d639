#include <catch2/catch.hpp>

#include "flightrec/recorder/containers/cpu_signals.h"

using flightrec::sampler::kAbsent;
using namespace flightrec::recorder::containers;

namespace {

constexpr int64_t kMs = 1'000'000;

// A group with a 20 ms quota per 100 ms period and one busy thread, read `periods` periods in:
// it runs 20 ms and waits 80 ms in each.
CpuReading throttled_group(int64_t periods, int64_t at_ns) {
  return {.at_ns = at_ns,
          .usage_us = periods * 20'000,
          .periods = periods,
          .throttled_periods = periods,
          .throttled_us = periods * 80'000};
}

}  // namespace

TEST_CASE("shouldGiveCoresAsCpuSecondsPerSecond", "[recorder][containers]") {
  const CpuReading before{.at_ns = 0, .usage_us = 1'000'000};
  const CpuReading after{.at_ns = 100 * kMs, .usage_us = 1'150'000};
  REQUIRE(cpu_cores(before, after).has_value());
  CHECK(*cpu_cores(before, after) == Approx(1.5));
}

TEST_CASE("shouldGiveNoCpuRateForAbsentBackwardsOrStillCounters", "[recorder][containers]") {
  CHECK_FALSE(cpu_cores({.at_ns = 0, .usage_us = kAbsent}, {.at_ns = kMs, .usage_us = 5}));
  CHECK_FALSE(cpu_cores({.at_ns = 0, .usage_us = 9}, {.at_ns = kMs, .usage_us = 5}));
  CHECK_FALSE(cpu_cores({.at_ns = kMs, .usage_us = 1}, {.at_ns = kMs, .usage_us = 5}));
}

TEST_CASE("shouldGiveEachPeriodsThrottledShareWhenReadOncePerPeriod", "[recorder][containers]") {
  const auto share = throttled_share(throttled_group(4, 0), throttled_group(5, 100 * kMs), 100'000);
  REQUIRE(share.has_value());
  CHECK(*share == Approx(0.8));
  CHECK(throttled_between(throttled_group(4, 0), throttled_group(5, 100 * kMs)));
  CHECK(*throttled_periods_ratio(throttled_group(4, 0), throttled_group(5, 100 * kMs)) == 1.0);
}

TEST_CASE("shouldGiveNoShareBetweenReadsWithinOnePeriod", "[recorder][containers]") {
  // A fast read 10 ms after the last: no refill came between, so nothing is resolved yet.
  CHECK_FALSE(throttled_share(throttled_group(5, 0), throttled_group(5, 10 * kMs), 100'000));
  CHECK_FALSE(throttled_periods_ratio(throttled_group(5, 0), throttled_group(5, 10 * kMs)));
  CHECK_FALSE(throttled_between(throttled_group(5, 0), throttled_group(5, 10 * kMs)));
}

TEST_CASE("shouldDiluteOneThrottledPeriodOverManyWhenReadSlowly", "[recorder][containers]") {
  // Ten periods, one throttled for 90 ms: read once, the share is the mean of the ten.
  const CpuReading before{.periods = 10, .throttled_periods = 0, .throttled_us = 0};
  const CpuReading after{.periods = 20, .throttled_periods = 1, .throttled_us = 90'000};
  CHECK(*throttled_share(before, after, 100'000) == Approx(0.09));
  CHECK(*throttled_periods_ratio(before, after) == Approx(0.1));
}

TEST_CASE("shouldAddTheThrottledTimeOfEveryCpu", "[recorder][containers]") {
  // Held on two CPUs for 70 ms each in one period: the kernel counts 140 ms.
  const CpuReading before{.periods = 1, .throttled_periods = 0, .throttled_us = 0};
  const CpuReading after{.periods = 2, .throttled_periods = 1, .throttled_us = 140'000};
  CHECK(*throttled_share(before, after, 100'000) == Approx(1.4));
}

TEST_CASE("shouldGiveNoShareWithoutAPeriodOrForCountersThatWentBack", "[recorder][containers]") {
  CHECK_FALSE(throttled_share(throttled_group(4, 0), throttled_group(5, kMs), 0));
  CHECK_FALSE(throttled_share(throttled_group(4, 0), throttled_group(5, kMs), kAbsent));
  CHECK_FALSE(throttled_share(throttled_group(9, 0), throttled_group(5, kMs), 100'000));
  CHECK_FALSE(throttled_share(CpuReading{}, throttled_group(5, kMs), 100'000));
  CHECK_FALSE(throttled_between(throttled_group(9, 0), throttled_group(5, kMs)));
}
