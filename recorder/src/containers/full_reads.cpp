#include "flightrec/recorder/containers/full_reads.h"

#include <algorithm>

#include "flightrec/recorder/containers/fast_tier.h"

namespace flightrec::recorder::containers {

uint64_t full_read_every(std::chrono::nanoseconds rate, std::chrono::nanoseconds detail_rate) {
  if (rate.count() <= 0) return 1;
  return static_cast<uint64_t>(std::max<int64_t>(1, detail_rate.count() / rate.count()));
}

bool full_read_due(const FullReadCandidate& candidate, uint64_t round, uint64_t every,
                   uint64_t phase) {
  if (!candidate.read_before || candidate.fast || candidate.events_changed) return true;
  if (candidate.memory_fill > kFastMemoryFill) return true;
  return every <= 1 || (round + phase) % every == 0;
}

}  // namespace flightrec::recorder::containers
