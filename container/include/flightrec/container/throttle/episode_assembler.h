#pragma once
// Turns what each CPU's queues report (a span began, a span ended) into each group's episodes, and
// keeps each group's totals. The reports of different CPUs arrive in any order, each when its CPU
// sees it; an episode is handed out once it can no longer grow: none of its group's spans that
// could join it is still open, and it ended long enough ago for a report still on its way.
#include <cstdint>
#include <map>
#include <vector>

#include "flightrec/container/throttle/throttle_episodes.h"

namespace flightrec::container {

struct AssemblerSettings {
  // How long after an episode's end a span that began before that end can still be reported as
  // begun: a CPU reports a begin at its next context switch, which the throttle itself causes.
  int64_t settle_ns = 10'000'000;
  // An open span whose end has not been reported after this long is given up (its end report was
  // lost): it holds its group's episodes back no longer and is counted in abandoned().
  int64_t abandon_ns = 10'000'000'000;
};

// What a group's episodes handed out so far add up to: the counters cpu.stat keeps, from the
// kernel's own times.
struct ThrottleTotals {
  uint64_t episodes = 0;
  uint64_t spans = 0;
  int64_t throttled_ns = 0;  // cpu.stat's throttled time: summed over CPUs
  uint64_t refills = 0;      // cpu.stat's nr_throttled
};

class EpisodeAssembler {
 public:
  explicit EpisodeAssembler(AssemblerSettings settings = {}) : settings_(settings) {}

  // A span began (end_ns 0) or ended (the whole span; its begin may have been lost). A begin on a
  // CPU whose span of the group is still open gives that one up (its end report was lost).
  void began(const ThrottleSpan& span);
  void ended(const ThrottleSpan& span);

  // Appends the episodes that can no longer grow as of `now_ns` (CLOCK_MONOTONIC), each group's
  // oldest first, and adds them to the totals.
  void take_settled(int64_t now_ns, std::vector<ThrottleEpisode>& out);

  // Every group with an episode handed out, by cgroup id.
  [[nodiscard]] const std::map<uint64_t, ThrottleTotals>& totals() const noexcept {
    return totals_;
  }
  // Spans that began and whose end never came (see AssemblerSettings::abandon_ns and began()).
  [[nodiscard]] uint64_t abandoned() const noexcept { return abandoned_; }
  // The spans open now, each group's by start: the groups throttled at this moment.
  [[nodiscard]] std::vector<ThrottleSpan> open_spans() const;

 private:
  struct Group {
    std::vector<ThrottleSpan> open;    // began, not ended
    std::vector<ThrottleSpan> closed;  // ended, not yet handed out in an episode
  };
  void take_settled(Group& group, int64_t now_ns, std::vector<ThrottleEpisode>& out);

  AssemblerSettings settings_;
  std::map<uint64_t, Group> groups_;
  std::map<uint64_t, ThrottleTotals> totals_;
  uint64_t abandoned_ = 0;
};

}  // namespace flightrec::container
