#include "flightrec/recorder/containers/fast_tier.h"

#include <tuple>
#include <utility>

#include "flightrec/common/top_indices.h"

namespace flightrec::recorder::containers {
namespace {

// Lower ranks first: what the fast tier is for, then how much of it.
struct Rank {
  int group = 0;  // 0 throttled, 1 near its memory limit, 2 busy
  double key = 0;
  size_t index = 0;
  bool operator<(const Rank& other) const {
    return std::tie(group, other.key, index) < std::tie(other.group, key, other.index);
  }
};

}  // namespace

std::vector<size_t> choose_fast_tier(std::span<const FastCandidate> candidates, size_t max) {
  std::vector<Rank> ranked;
  for (size_t i = 0; i < candidates.size(); ++i) {
    const FastCandidate& c = candidates[i];
    if (c.throttled) {
      ranked.push_back({0, c.throttled_share, i});
    } else if (c.memory_fill > kFastMemoryFill) {
      ranked.push_back({1, c.memory_fill, i});
    } else if (c.cpu_cores > 0) {
      ranked.push_back({2, c.cpu_cores, i});
    }
  }
  return top_indices(std::move(ranked), max);
}

}  // namespace flightrec::recorder::containers
