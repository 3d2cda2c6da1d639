// The period strip: a group's throttling episodes laid on its CFS periods.
#include <algorithm>
#include <string>

#include "flightrec/container/throttle/throttle_episodes.h"

namespace flightrec::container {

namespace {

// `using` cannot carry __extension__, which keeps -Wpedantic quiet about __int128.
__extension__ typedef __int128 Wide;  // NOLINT(modernize-use-using)

// The index of the period of `grid` that holds `time_ns`: period k is
// [anchor + k * period, anchor + (k + 1) * period). Wide, so no pair of times can overflow.
Wide period_index(int64_t time_ns, PeriodGrid grid) {
  const Wide offset = Wide{time_ns} - grid.anchor_ns;
  Wide index = offset / grid.period_ns;
  if (offset % grid.period_ns != 0 && offset < 0) --index;
  return index;
}

int64_t period_start(Wide index, PeriodGrid grid) {
  return static_cast<int64_t>(Wide{grid.anchor_ns} + index * grid.period_ns);
}

struct Interval {
  int64_t start_ns;
  int64_t end_ns;
};

// The episodes' times as disjoint intervals, oldest first: the wall time the group was throttled.
std::vector<Interval> union_of(std::span<const ThrottleEpisode> episodes) {
  std::vector<Interval> intervals;
  for (const ThrottleEpisode& episode : episodes) {
    if (episode.end_ns > episode.start_ns) intervals.push_back({episode.start_ns, episode.end_ns});
  }
  std::sort(intervals.begin(), intervals.end(),
            [](const Interval& a, const Interval& b) { return a.start_ns < b.start_ns; });
  std::vector<Interval> merged;
  for (const Interval& interval : intervals) {
    if (!merged.empty() && interval.start_ns <= merged.back().end_ns) {
      merged.back().end_ns = std::max(merged.back().end_ns, interval.end_ns);
    } else {
      merged.push_back(interval);
    }
  }
  return merged;
}

}  // namespace

uint32_t refills_within(int64_t start_ns, int64_t end_ns, PeriodGrid grid) {
  if (grid.period_ns <= 0 || end_ns <= start_ns) return 0;
  // A refill at anchor + k * period falls in (start, end] for k from index(start) + 1 to
  // index(end).
  return static_cast<uint32_t>(period_index(end_ns, grid) - period_index(start_ns, grid));
}

Result<std::vector<PeriodCell>> period_strip(std::span<const ThrottleEpisode> episodes,
                                             PeriodGrid grid, int64_t from_ns, int64_t to_ns) {
  if (grid.period_ns <= 0) {
    return Error{"period strip: the period must be positive, not " +
                 std::to_string(grid.period_ns) + " ns"};
  }
  if (to_ns < from_ns) {
    return Error{"period strip: the window ends (" + std::to_string(to_ns) +
                 " ns) before it starts (" + std::to_string(from_ns) + " ns)"};
  }
  std::vector<PeriodCell> cells;
  if (to_ns == from_ns) return cells;
  const Wide first = period_index(from_ns, grid);
  const Wide last = period_index(to_ns - 1, grid);
  if (last - first + 1 > kMaxStripPeriods) {
    return Error{"period strip: the window holds " +
                 std::to_string(static_cast<int64_t>((last - first + 1))) + " periods of " +
                 std::to_string(grid.period_ns) + " ns, more than " +
                 std::to_string(kMaxStripPeriods)};
  }
  cells.resize(static_cast<size_t>(last - first + 1));
  for (size_t i = 0; i < cells.size(); ++i) {
    cells[i].start_ns = period_start(first + static_cast<Wide>(i), grid);
  }
  // Only for indexes from first to last.
  auto cell_at = [&](Wide index) -> PeriodCell& {
    return cells[static_cast<size_t>(index - first)];
  };

  for (const Interval& interval : union_of(episodes)) {
    const Wide from = std::max(period_index(interval.start_ns, grid), first);
    const Wide to = std::min(period_index(interval.end_ns - 1, grid), last);
    for (Wide index = from; index <= to; ++index) {
      PeriodCell& cell = cell_at(index);
      const int64_t cell_end = period_start(index + 1, grid);
      cell.throttled_ns +=
          std::min(interval.end_ns, cell_end) - std::max(interval.start_ns, cell.start_ns);
    }
  }
  for (const ThrottleEpisode& episode : episodes) {
    const Wide began = period_index(episode.start_ns, grid);
    if (began >= first && began <= last) cell_at(began).throttled = true;
    // The refill at the end of period k is anchor + (k + 1) * period: those in (start, end] mark
    // the periods from the start's to the one before the end's.
    if (episode.end_ns <= episode.start_ns) continue;
    const Wide from = std::max(period_index(episode.start_ns, grid), first);
    const Wide to = std::min(period_index(episode.end_ns, grid) - 1, last);
    for (Wide index = from; index <= to; ++index) cell_at(index).throttled = true;
  }
  return cells;
}

}  // namespace flightrec::container
