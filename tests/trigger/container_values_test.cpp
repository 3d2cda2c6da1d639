// What container rules compare, from a container's successive reads: each CFS period's
// throttled share at the fast tier's rate, kept between periods and 0 once the group idles; the
// slow round's CPU rate, throttled-period share and memory.events increases; memory fill.
#include "flightrec/trigger/container_values.h"

#include <catch2/catch.hpp>
#include <cmath>

using flightrec::config::ContainerSignal;
using flightrec::container::CgroupStats;
using flightrec::container::kUnlimited;
using flightrec::trigger::ContainerValues;

namespace {

constexpr int64_t kMs = 1'000'000;

// A 100 ms period; `periods` ended, `throttled_ms` held back in all, `usage_ms` used.
CgroupStats cpu(int64_t periods, int64_t throttled_periods, int64_t throttled_ms,
                int64_t usage_ms = 0) {
  CgroupStats stats;
  stats.bandwidth = {.quota_us = 20'000, .period_us = 100'000};
  stats.cpu.periods = periods;
  stats.cpu.throttled_periods = throttled_periods;
  stats.cpu.throttled_us = throttled_ms * 1000;
  stats.cpu.usage_us = usage_ms * 1000;
  return stats;
}

}  // namespace

TEST_CASE("The throttled share is each period's, kept until the next ends, 0 once idle",
          "[container_rules]") {
  ContainerValues values;
  values.take(cpu(10, 5, 400), 0, true);
  CHECK(std::isnan(values.value(ContainerSignal::cpu_throttled_ratio)));  // one read: nothing
  values.take(cpu(11, 6, 480), 100 * kMs, false);
  CHECK(values.value(ContainerSignal::cpu_throttled_ratio) == Approx(0.8));
  // Fast reads inside the next period: no period ended, the last one's share stands.
  values.take(cpu(11, 6, 480), 110 * kMs, false);
  values.take(cpu(11, 6, 480), 190 * kMs, false);
  CHECK(values.value(ContainerSignal::cpu_throttled_ratio) == Approx(0.8));
  values.take(cpu(12, 6, 480), 200 * kMs, false);  // a period without throttling
  CHECK(values.value(ContainerSignal::cpu_throttled_ratio) == 0.0);
  values.take(cpu(13, 7, 550), 300 * kMs, false);
  CHECK(values.value(ContainerSignal::cpu_throttled_ratio) == Approx(0.7));
  // Idle: nr_periods stops; two periods later the share is 0, not the last period's.
  values.take(cpu(13, 7, 550), 450 * kMs, false);
  CHECK(values.value(ContainerSignal::cpu_throttled_ratio) == Approx(0.7));
  values.take(cpu(13, 7, 550), 500 * kMs, false);
  CHECK(values.value(ContainerSignal::cpu_throttled_ratio) == 0.0);
}

TEST_CASE("Without cpu.stat's periods there is no throttled share", "[container_rules]") {
  ContainerValues values;
  CgroupStats stats;
  values.take(stats, 0, true);
  values.take(stats, 100 * kMs, true);
  CHECK(std::isnan(values.value(ContainerSignal::cpu_throttled_ratio)));
  CHECK(std::isnan(values.value(ContainerSignal::cpu_usage_cores)));
}

TEST_CASE("Slow signals change at slow rounds only, over the whole round", "[container_rules]") {
  ContainerValues values;
  values.take(cpu(10, 0, 0, 0), 0, true);
  values.take(cpu(15, 4, 300, 500), 500 * kMs, false);
  CHECK(std::isnan(values.value(ContainerSignal::cpu_usage_cores)));
  values.take(cpu(20, 5, 400, 1000), 1000 * kMs, true);
  CHECK(values.value(ContainerSignal::cpu_usage_cores) == Approx(1.0));
  CHECK(values.value(ContainerSignal::cpu_throttled_periods_ratio) == Approx(0.5));
  CHECK(flightrec::trigger::is_fast_signal(ContainerSignal::cpu_throttled_ratio));
  CHECK_FALSE(flightrec::trigger::is_fast_signal(ContainerSignal::cpu_usage_cores));
}

TEST_CASE("memory.events' increases over a slow round; a counter that went back has none",
          "[container_rules]") {
  ContainerValues values;
  CgroupStats stats;
  stats.memory.events = {.low = 0, .high = 3, .max = 10, .oom = 0, .oom_kill = 0};
  values.take(stats, 0, true);
  CHECK(std::isnan(values.value(ContainerSignal::memory_events_max_increase)));
  stats.memory.events = {.low = 0, .high = 5, .max = 12, .oom = 1, .oom_kill = 1};
  values.take(stats, 1000 * kMs, true);
  CHECK(values.value(ContainerSignal::memory_events_high_increase) == 2);
  CHECK(values.value(ContainerSignal::memory_events_max_increase) == 2);
  CHECK(values.value(ContainerSignal::memory_events_oom_kill_increase) == 1);
  CHECK(values.value(ContainerSignal::memory_events_low_increase) == 0);
  stats.memory.events.max = 1;  // the cgroup was made again
  values.take(stats, 2000 * kMs, true);
  CHECK(std::isnan(values.value(ContainerSignal::memory_events_max_increase)));
}

TEST_CASE("Memory fill is usage over the limit, nothing without a limit", "[container_rules]") {
  ContainerValues values;
  CgroupStats stats;
  stats.memory.usage_bytes = 900;
  stats.memory.limit_bytes = 1000;
  values.take(stats, 0, false);
  CHECK(values.value(ContainerSignal::memory_fill) == Approx(0.9));
  CHECK(values.value(ContainerSignal::memory_usage_bytes) == 900);
  stats.memory.limit_bytes = kUnlimited;
  values.take(stats, kMs, false);
  CHECK(std::isnan(values.value(ContainerSignal::memory_fill)));
}
