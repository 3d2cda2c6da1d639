#pragma once
// What the container tier derives from two successive reads of a container's CPU counters
// (cpu.stat, and cpuacct.usage on v1): its CPU rate and how much of each CFS period it was held
// back. Pure, so the recorder's thread, the tests and a later replay of container frames share
// one definition. A counter that is absent or went backwards yields no value, never a negative
// one.
#include <cstdint>
#include <optional>

#include "flightrec/sampler/series.h"

namespace flightrec::recorder::containers {

// One read of the counters, with its time.
struct CpuReading {
  int64_t at_ns = 0;  // CLOCK_MONOTONIC
  int64_t usage_us = sampler::kAbsent;
  int64_t periods = sampler::kAbsent;            // nr_periods
  int64_t throttled_periods = sampler::kAbsent;  // nr_throttled
  int64_t throttled_us = sampler::kAbsent;       // throttled_usec, v1 throttled_time
};

// CPU seconds per second between the reads (1 = one core busy). Nothing when time did not move
// forward.
[[nodiscard]] std::optional<double> cpu_cores(const CpuReading& before, const CpuReading& after);

// The throttled time of the CFS periods that ended between the reads, per period, as a share of
// the period: 0.8 when a group with a 20 ms quota ran 20 ms and then waited 80 ms for its refill.
// The kernel adds each CPU's throttled time, so a group held on two CPUs at once can reach 2.
// Nothing when no period ended between the reads (nr_periods did not move: read again sooner
// than a period, or the group was idle) or `period_us` is not positive. Read at least once per
// period, as the fast tier is, each value is one period's; read less often, it is the mean of
// the periods between, and a single throttled period is diluted by the others.
[[nodiscard]] std::optional<double> throttled_share(const CpuReading& before,
                                                    const CpuReading& after, int64_t period_us);

// The share of the periods that ended between the reads in which the group was throttled
// (nr_throttled over nr_periods). Nothing when no period ended.
[[nodiscard]] std::optional<double> throttled_periods_ratio(const CpuReading& before,
                                                            const CpuReading& after);

// Whether nr_throttled grew between the reads.
[[nodiscard]] bool throttled_between(const CpuReading& before, const CpuReading& after);

}  // namespace flightrec::recorder::containers
