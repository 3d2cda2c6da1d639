#include "flightrec/sampler/cpu_budget.h"

#include <catch2/catch.hpp>
#include <memory>
#include <vector>

#include "flightrec/sampler/sampler_stats.h"

using namespace flightrec::sampler;
using namespace std::chrono_literals;

namespace {

CpuBudgetSettings ten_percent() { return {.budget = 0.10}; }

// Three sources at a 4 ms tick: stat every tick, vmstat every 2, diskstats every 4; none may go
// beyond 250 ticks (1 s).
std::vector<SourceCost> three_sources(double stat, double vmstat, double diskstats) {
  return {{.read_share = stat, .every = 1, .configured_every = 1, .slowest_every = 250},
          {.read_share = vmstat, .every = 2, .configured_every = 2, .slowest_every = 250},
          {.read_share = diskstats, .every = 4, .configured_every = 4, .slowest_every = 250}};
}

}  // namespace

TEST_CASE("Over budget, the costliest source is read half as often", "[budget]") {
  const auto sources = three_sources(0.01, 0.03, 0.02);
  const auto step = next_rate_step(0.12, ten_percent(), sources);
  REQUIRE(step.has_value());
  CHECK(step->source == 1);
  CHECK(step->from_every == 2);
  CHECK(step->to_every == 4);
  CHECK(step->lowers());
}

TEST_CASE("Between the restore line and the budget nothing changes", "[budget]") {
  auto sources = three_sources(0.01, 0.03, 0.02);
  sources[1].every = 8;                                                   // slowed before
  CHECK_FALSE(next_rate_step(0.10, ten_percent(), sources).has_value());  // at the budget
  CHECK_FALSE(next_rate_step(0.07, ten_percent(), sources).has_value());  // at the restore line
  CHECK_FALSE(next_rate_step(0.085, ten_percent(), sources).has_value());
}

TEST_CASE("A source is never slowed beyond its slowest rate; the next costliest goes instead",
          "[budget]") {
  auto sources = three_sources(0.01, 0.03, 0.02);
  sources[1].every = 250;
  const auto step = next_rate_step(0.2, ten_percent(), sources);
  REQUIRE(step.has_value());
  CHECK(step->source == 2);
  // 200 doubled would pass the ceiling: it stops at the ceiling.
  sources[2].every = 200;
  sources[0].read_share = 0;
  const auto capped = next_rate_step(0.2, ten_percent(), sources);
  REQUIRE(capped.has_value());
  CHECK(capped->source == 2);
  CHECK(capped->to_every == 250);
}

TEST_CASE("Over budget with every source at its slowest, nothing is left to change", "[budget]") {
  auto sources = three_sources(0.01, 0.03, 0.02);
  for (auto& s : sources) s.every = s.slowest_every;
  CHECK_FALSE(next_rate_step(0.5, ten_percent(), sources).has_value());
}

TEST_CASE("A source configured slower than the ceiling is never slowed", "[budget]") {
  std::vector<SourceCost> sources{
      {.read_share = 0.05, .every = 500, .configured_every = 500, .slowest_every = 500},
      {.read_share = 0.001, .every = 1, .configured_every = 1, .slowest_every = 250}};
  const auto step = next_rate_step(0.2, ten_percent(), sources);
  REQUIRE(step.has_value());
  CHECK(step->source == 1);
}

TEST_CASE("Well under budget, the cheapest slowed source that fits is restored one step",
          "[budget]") {
  auto sources = three_sources(0.004, 0.003, 0.001);
  sources[1].every = 8;   // configured 2
  sources[2].every = 64;  // configured 4
  // 0.05 + 0.001 stays under 0.07: diskstats (cheaper) comes back first, halving its period.
  const auto step = next_rate_step(0.05, ten_percent(), sources);
  REQUIRE(step.has_value());
  CHECK(step->source == 2);
  CHECK(step->from_every == 64);
  CHECK(step->to_every == 32);
  CHECK_FALSE(step->lowers());
}

TEST_CASE("A source whose restoring would cross the restore line stays slowed", "[budget]") {
  auto sources = three_sources(0.004, 0.03, 0.001);
  sources[1].every = 8;
  // 0.05 + 0.03 would be 0.08, over the 0.07 line: nothing fits.
  CHECK_FALSE(next_rate_step(0.05, ten_percent(), sources).has_value());
  // With less CPU in use it fits.
  const auto step = next_rate_step(0.03, ten_percent(), sources);
  REQUIRE(step.has_value());
  CHECK(step->source == 1);
  CHECK(step->to_every == 4);
}

TEST_CASE("Restoring never goes faster than the configured rate", "[budget]") {
  std::vector<SourceCost> sources{
      {.read_share = 0.001, .every = 250, .configured_every = 3, .slowest_every = 250}};
  std::vector<uint32_t> seen;
  for (int i = 0; i < 20; ++i) {
    const auto step = next_rate_step(0.01, ten_percent(), sources);
    if (!step) break;
    sources[0].every = step->to_every;
    seen.push_back(step->to_every);
  }
  CHECK(seen == std::vector<uint32_t>{125, 62, 31, 15, 7, 3});
}

TEST_CASE("A budget of zero never changes anything", "[budget]") {
  const auto sources = three_sources(0.5, 0.5, 0.5);
  CHECK_FALSE(next_rate_step(3.0, CpuBudgetSettings{}, sources).has_value());
}

TEST_CASE("The CPU window reports shares once it spans a whole window, then slides", "[budget]") {
  const CpuBudgetSettings settings{.budget = 0.1, .window = 4s, .check_every = 1s};
  CpuWindow window(settings, 2);
  std::vector<double> shares(2, -1);
  constexpr int64_t kSecond = 1'000'000'000;
  // Each second the process uses 50 ms of CPU; source 0 reads for 10 ms, source 1 for 1 ms.
  auto add_second = [&](int64_t second) {
    const std::vector<uint64_t> read{static_cast<uint64_t>(second) * 10'000'000,
                                     static_cast<uint64_t>(second) * 1'000'000};
    return window.add(second * kSecond, second * 50'000'000, read, shares);
  };
  for (int64_t s = 0; s < 4; ++s) CHECK_FALSE(add_second(s).has_value());
  auto used = add_second(4);  // readings at 0..4 s: a whole window
  REQUIRE(used.has_value());
  CHECK(*used == Approx(0.05));
  CHECK(shares[0] == Approx(0.01));
  CHECK(shares[1] == Approx(0.001));
  CHECK(add_second(5).has_value());  // slid to 1..5 s
  // After a restart the next share needs a whole window of new readings.
  window.restart();
  for (int64_t s = 6; s < 9; ++s) CHECK_FALSE(add_second(s).has_value());
  used = add_second(9);
  REQUIRE(used.has_value());
  CHECK(*used == Approx(0.05));
}

TEST_CASE("The rate change log keeps the newest changes in order and spells them for metadata",
          "[budget]") {
  SamplerStats stats;
  for (const char* name : {"stat", "vmstat"}) {
    stats.sources.push_back(std::make_unique<SourceStats>());
    stats.sources.back()->name = name;
  }
  CHECK(rate_changes_text(stats).empty());
  stats.rate_changes.add({.real_ns = 1'000, .source = 1, .rate_ns = 40'000'000});
  stats.rate_changes.add({.real_ns = 2'000, .source = 0, .rate_ns = 1'000'000'000});
  CHECK(rate_changes_text(stats) == "vmstat=40ms@1000 stat=1s@2000");

  for (int64_t i = 0; i < 300; ++i) {
    stats.rate_changes.add({.real_ns = 10'000 + i, .source = 0, .rate_ns = 8'000'000});
  }
  const auto kept = stats.rate_changes.newest();
  REQUIRE(kept.size() == RateChangeLog::kKept);
  CHECK(kept.front().real_ns == 10'000 + 300 - static_cast<int64_t>(RateChangeLog::kKept));
  CHECK(kept.back().real_ns == 10'299);
  CHECK(stats.rate_changes.total() == 302);
}
