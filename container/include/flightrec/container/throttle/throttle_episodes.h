#pragma once
// CFS bandwidth throttling as the kernel timed it: what one CPU's queue of a group reports
// (ThrottleSpan), the group's episode those reports make together (ThrottleEpisode), and the
// period strip a viewer draws from the episodes. Times are CLOCK_MONOTONIC nanoseconds. See
// docs/CONTAINERS.md ("Throttling episodes").
#include <cstdint>
#include <span>
#include <vector>

#include "flightrec/common/result.h"

namespace flightrec::container {

// One CPU's queue of a group, throttled by the group's own quota from start_ns to end_ns (when the
// refill or runtime returned by another CPU let it run again). A group's CFS quota is shared by its
// queues on every CPU, and each is throttled on its own when it runs out.
struct ThrottleSpan {
  uint64_t cgroup_id = 0;  // the cgroup directory's inode number (its kernfs node id)
  uint32_t cpu = 0;
  // When the queue was throttled: seen at the context switch the throttle causes, microseconds
  // after the kernel's throttle_cfs_rq().
  int64_t start_ns = 0;
  // When the kernel started counting the throttled time (cpu.stat's): when it took the group's
  // first task off that CPU, which another task running there can put off by a tick or more. 0 if
  // it never did (the quota came back first).
  int64_t timed_from_ns = 0;
  int64_t end_ns = 0;         // 0 while it lasts
  int64_t period_ns = 0;      // the group's CFS period
  int64_t quota_ns = 0;       // the group's quota per period
  int64_t period_end_ns = 0;  // the refill that was due when it began: its period is the one before
  // end_ns is the kernel's own unthrottle time. False (a throttle the kernel never counted, a
  // nested one, or a kernel before 6.8): the refill due between the last context switch of that CPU
  // that saw it throttled and the one that saw it unthrottled, else the latter's time.
  bool end_exact = false;
};

// The part of a span cpu.stat counts as throttled time.
inline int64_t counted_ns(const ThrottleSpan& span) {
  return span.timed_from_ns != 0 && span.end_ns > span.timed_from_ns
             ? span.end_ns - span.timed_from_ns
             : 0;
}

// A group's throttling: its spans on every CPU that overlap or began in one period, merged.
struct ThrottleEpisode {
  uint64_t cgroup_id = 0;
  int64_t start_ns = 0;  // the first span's start
  int64_t end_ns = 0;    // the last span's end
  int64_t period_ns = 0;
  int64_t quota_ns = 0;
  int64_t period_end_ns = 0;  // the first refill due: the episode began in the period before it
  uint32_t cpus = 0;          // distinct CPUs with a span
  uint32_t spans = 0;
  // What the kernel counted of its spans (counted_ns): the growth of cpu.stat's throttled time
  // (throttled_usec on v2, throttled_time on v1), which adds up every CPU's queue; more than
  // end - start when several were throttled at once.
  int64_t throttled_ns = 0;
  // Refills (period ends) it was throttled across: the growth of cpu.stat's nr_throttled.
  uint32_t refills = 0;
  bool end_exact = false;  // every span's end was the kernel's
  bool operator==(const ThrottleEpisode&) const = default;
};

// The period boundaries of a group: its refills come every period_ns, one of them at anchor_ns
// (any episode's period_end_ns).
struct PeriodGrid {
  int64_t period_ns = 0;
  int64_t anchor_ns = 0;
};

// One period of the strip: [start_ns, start_ns + period_ns).
struct PeriodCell {
  int64_t start_ns = 0;
  // Time within the period during which the group was throttled on at least one CPU (wall time,
  // not summed over CPUs). A period after a throttled one holds the refill's own lateness here,
  // tens of microseconds, without being `throttled`.
  int64_t throttled_ns = 0;
  // A throttle began in the period, or lasted until its refill (what nr_throttled counts).
  bool throttled = false;
};

// The most periods period_strip() builds at once: 1,000,000 100 ms periods are 28 hours.
inline constexpr int64_t kMaxStripPeriods = 1'000'000;

// The periods of `grid` that overlap [from_ns, to_ns), oldest first, with the throttling of
// `episodes` (one group's, in any order) in each. Fails, naming the value, for a period that is
// not positive, a window that ends before it starts, or one of more than kMaxStripPeriods periods.
Result<std::vector<PeriodCell>> period_strip(std::span<const ThrottleEpisode> episodes,
                                             PeriodGrid grid, int64_t from_ns, int64_t to_ns);

// How many refills of `grid` fall in (start_ns, end_ns]: the periods a throttle from start_ns to
// end_ns waited out. 0 when end_ns <= start_ns or the period is not positive.
uint32_t refills_within(int64_t start_ns, int64_t end_ns, PeriodGrid grid);

}  // namespace flightrec::container
