#pragma once
// Which containers a slow round reads in full, every file, rather than only their counters
// (ContainerReader::read_counters): a pure choice, so the rule can be tested. docs/CONTAINERS.md
// "How often each container is read".
#include <chrono>
#include <cstdint>

namespace flightrec::recorder::containers {

// What decides one container's read at a slow round.
struct FullReadCandidate {
  bool read_before = false;     // it had a full read since it was found
  bool fast = false;            // in the fast tier
  double memory_fill = 0;       // memory usage / limit at its last read; 0 without a limit
  bool events_changed = false;  // a memory event was counted since its last read
};

// The slow rounds from one full read of a container to the next: detail_rate over rate, at
// least 1 (every round).
[[nodiscard]] uint64_t full_read_every(std::chrono::nanoseconds rate,
                                       std::chrono::nanoseconds detail_rate);

// Whether the container's read at slow round `round` takes every file: its first read; one round
// in each `every`, at the container's own `phase`, so that the full reads of many containers
// spread over the rounds instead of landing all in one; and every round while it is in the fast
// tier, over kFastMemoryFill of its memory limit, or when its memory events just moved (then
// memory.stat says what filled it, while the breach is fresh).
[[nodiscard]] bool full_read_due(const FullReadCandidate& candidate, uint64_t round, uint64_t every,
                                 uint64_t phase);

}  // namespace flightrec::recorder::containers
