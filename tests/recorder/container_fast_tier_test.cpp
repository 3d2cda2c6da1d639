#include <catch2/catch.hpp>
#include <vector>

#include "flightrec/recorder/containers/fast_tier.h"

using namespace flightrec::recorder::containers;

TEST_CASE("shouldPutTheThrottledFirstThenTheNearlyFullThenTheBusiest", "[recorder][containers]") {
  const std::vector<FastCandidate> candidates{
      {.cpu_cores = 3.0},                                             // 0: busiest
      {.memory_fill = 0.95, .cpu_cores = 0.1},                        // 1: near its limit
      {.throttled = true, .throttled_share = 0.2},                    // 2: throttled a little
      {.cpu_cores = 0.5},                                             // 3: busy
      {.throttled = true, .throttled_share = 0.8, .cpu_cores = 0.2},  // 4: throttled hard
      {.memory_fill = 0.99},                                          // 5: fuller
  };
  CHECK(choose_fast_tier(candidates, 10) == std::vector<size_t>{4, 2, 5, 1, 0, 3});
  CHECK(choose_fast_tier(candidates, 3) == std::vector<size_t>{4, 2, 5});
  CHECK(choose_fast_tier(candidates, 0).empty());
}

TEST_CASE("shouldNeverChooseAnIdleContainer", "[recorder][containers]") {
  const std::vector<FastCandidate> candidates{{}, {.memory_fill = 0.9}, {.cpu_cores = 0.01}, {}};
  CHECK(choose_fast_tier(candidates, 16) == std::vector<size_t>{2});
}

TEST_CASE("shouldBreakTiesByIndexSoTheChoiceIsStable", "[recorder][containers]") {
  const std::vector<FastCandidate> candidates(5, FastCandidate{.cpu_cores = 1.0});
  CHECK(choose_fast_tier(candidates, 3) == std::vector<size_t>{0, 1, 2});
}
