// When a slow round reads a container in full rather than only its counters.
#include <catch2/catch.hpp>

#include "flightrec/recorder/containers/full_reads.h"

using namespace flightrec::recorder::containers;
using namespace std::chrono_literals;

TEST_CASE("shouldReadInFullOnceInDetailRateOverRateRounds", "[recorder][containers]") {
  CHECK(full_read_every(1s, 10s) == 10);
  CHECK(full_read_every(1s, 1500ms) == 1);
  CHECK(full_read_every(100ms, 1s) == 10);
  CHECK(full_read_every(1s, 1s) == 1);
  const FullReadCandidate quiet{.read_before = true};
  int due = 0;
  for (uint64_t round = 0; round < 30; ++round) {
    if (full_read_due(quiet, round, 10, 3)) {
      ++due;
      CHECK((round + 3) % 10 == 0);  // at its phase
    }
  }
  CHECK(due == 3);
  CHECK(full_read_due(quiet, 5, 1, 0));  // every round when detail_rate is rate
}

TEST_CASE("shouldReadInFullWhatIsNewFastNearItsLimitOrJustHadAMemoryEvent",
          "[recorder][containers]") {
  const uint64_t off_phase = 1;  // round 0 at phase 1 of 10 is not a full round
  CHECK_FALSE(full_read_due({.read_before = true}, 0, 10, off_phase));
  CHECK(full_read_due({.read_before = false}, 0, 10, off_phase));
  CHECK(full_read_due({.read_before = true, .fast = true}, 0, 10, off_phase));
  CHECK(full_read_due({.read_before = true, .memory_fill = 0.95}, 0, 10, off_phase));
  CHECK_FALSE(full_read_due({.read_before = true, .memory_fill = 0.5}, 0, 10, off_phase));
  CHECK(full_read_due({.read_before = true, .events_changed = true}, 0, 10, off_phase));
}
