#pragma once
// Which containers the fast tier reads until the next slow round: a pure choice over what the
// slow round just saw, so its order can be tested. docs/CONTAINERS.md "How often each container
// is read".
#include <cstddef>
#include <span>
#include <vector>

namespace flightrec::recorder::containers {

// Memory usage over this share of the limit puts a container in the fast tier.
inline constexpr double kFastMemoryFill = 0.9;

// What the last slow round saw of one container.
struct FastCandidate {
  bool throttled = false;      // nr_throttled grew since the round before
  double throttled_share = 0;  // its largest throttled share of a period since then
  double memory_fill = 0;      // memory usage / limit; 0 without a limit
  double cpu_cores = 0;        // CPU seconds per second since the round before
};

// The indices of at most `max` candidates, in this order: the throttled ones (the most throttled
// first), then those over kFastMemoryFill of their memory limit (the fullest first), then the
// busiest by CPU. A container that used no CPU and is neither throttled nor near its limit is
// never chosen. Ties go to the lower index, so an unchanged round chooses the same containers.
[[nodiscard]] std::vector<size_t> choose_fast_tier(std::span<const FastCandidate> candidates,
                                                   size_t max);

}  // namespace flightrec::recorder::containers
