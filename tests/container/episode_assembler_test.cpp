// The episode assembler: each CPU's span reports into one group's episodes, held back while
// another CPU's span could still join them.
#include "flightrec/container/throttle/episode_assembler.h"

#include <catch2/catch.hpp>
#include <vector>

using namespace flightrec::container;

namespace {

constexpr int64_t kMs = 1'000'000;
constexpr int64_t kPeriod = 100 * kMs;

// A span of group `group` on `cpu`, begun in the period that ends at `refill_ms`.
ThrottleSpan span(uint64_t group, uint32_t cpu, int64_t start_ms, int64_t end_ms,
                  int64_t refill_ms) {
  ThrottleSpan s;
  s.cgroup_id = group;
  s.cpu = cpu;
  s.start_ns = start_ms * kMs;
  s.timed_from_ns = s.start_ns;
  s.end_ns = end_ms * kMs;
  s.period_ns = kPeriod;
  s.quota_ns = 20 * kMs;
  s.period_end_ns = refill_ms * kMs;
  s.end_exact = true;
  return s;
}

ThrottleSpan begun(ThrottleSpan s) {
  s.end_ns = 0;
  return s;
}

std::vector<ThrottleEpisode> settled(EpisodeAssembler& assembler, int64_t now_ms) {
  std::vector<ThrottleEpisode> out;
  assembler.take_settled(now_ms * kMs, out);
  return out;
}

}  // namespace

TEST_CASE("shouldMakeOneEpisodeOfAGroupThrottledOnTwoCpus", "[container][episode_assembler]") {
  EpisodeAssembler assembler;
  const ThrottleSpan cpu0 = span(7, 0, 20, 100, 100);
  const ThrottleSpan cpu1 = span(7, 1, 25, 100, 100);
  assembler.began(begun(cpu0));
  assembler.began(begun(cpu1));
  assembler.ended(cpu0);
  CHECK(settled(assembler, 500).empty());  // cpu 1 is still throttled: it may end later
  assembler.ended(cpu1);
  const auto episodes = settled(assembler, 500);
  REQUIRE(episodes.size() == 1);
  CHECK(episodes[0].cgroup_id == 7);
  CHECK(episodes[0].start_ns == 20 * kMs);
  CHECK(episodes[0].end_ns == 100 * kMs);
  CHECK(episodes[0].cpus == 2);
  CHECK(episodes[0].spans == 2);
  CHECK(episodes[0].throttled_ns == 155 * kMs);  // what cpu.stat adds: both queues' time
  CHECK(episodes[0].refills == 1);               // one refill, however many CPUs waited for it
  CHECK(episodes[0].period_end_ns == 100 * kMs);
  CHECK(episodes[0].end_exact);
  CHECK(assembler.totals().at(7).episodes == 1);
  CHECK(assembler.totals().at(7).throttled_ns == 155 * kMs);
  CHECK(assembler.totals().at(7).refills == 1);
  CHECK(assembler.open_spans().empty());
}

TEST_CASE("shouldJoinSpansOfOnePeriodThatDoNotOverlap", "[container][episode_assembler]") {
  // CPU 0 was let run again by runtime another CPU returned, then CPU 1 ran out in the same
  // period: the group ran out of quota once.
  EpisodeAssembler assembler;
  assembler.ended(span(7, 0, 20, 40, 100));
  assembler.ended(span(7, 1, 60, 100, 100));
  const auto episodes = settled(assembler, 500);
  REQUIRE(episodes.size() == 1);
  CHECK(episodes[0].start_ns == 20 * kMs);
  CHECK(episodes[0].end_ns == 100 * kMs);
  CHECK(episodes[0].throttled_ns == 60 * kMs);
  CHECK(episodes[0].refills == 1);
}

TEST_CASE("shouldKeepEachPeriodsThrottleApartAndInOrder", "[container][episode_assembler]") {
  EpisodeAssembler assembler;
  // Reported out of order, as two CPUs report them.
  assembler.ended(span(7, 1, 130, 200, 200));
  assembler.ended(span(7, 0, 20, 100, 100));
  assembler.ended(span(9, 0, 50, 100, 100));  // another group
  const auto episodes = settled(assembler, 500);
  REQUIRE(episodes.size() == 3);
  CHECK(episodes[0].cgroup_id == 7);
  CHECK(episodes[0].start_ns == 20 * kMs);
  CHECK(episodes[1].cgroup_id == 7);
  CHECK(episodes[1].start_ns == 130 * kMs);
  CHECK(episodes[2].cgroup_id == 9);
  CHECK(assembler.totals().at(7).episodes == 2);
  CHECK(assembler.totals().at(7).refills == 2);
  CHECK(assembler.totals().at(7).throttled_ns == 150 * kMs);
  CHECK(assembler.totals().at(9).throttled_ns == 50 * kMs);
}

TEST_CASE("shouldCountEveryRefillOfAThrottleInDebt", "[container][episode_assembler]") {
  // Deep in debt after a burst: throttled through three refills.
  EpisodeAssembler assembler;
  assembler.ended(span(7, 0, 20, 300, 100));
  const auto episodes = settled(assembler, 500);
  REQUIRE(episodes.size() == 1);
  CHECK(episodes[0].refills == 3);
}

TEST_CASE("shouldWaitBeforeHandingOutARecentEpisode", "[container][episode_assembler]") {
  // Another CPU's begin of the same throttle may still be on its way for settle_ns.
  EpisodeAssembler assembler(AssemblerSettings{.settle_ns = 10 * kMs});
  assembler.ended(span(7, 0, 20, 100, 100));
  CHECK(settled(assembler, 105).empty());
  assembler.ended(span(7, 1, 30, 100, 100));
  const auto episodes = settled(assembler, 110);
  REQUIRE(episodes.size() == 1);
  CHECK(episodes[0].cpus == 2);
}

TEST_CASE("shouldHoldLaterEpisodesBehindOneStillOpen", "[container][episode_assembler]") {
  EpisodeAssembler assembler;
  assembler.began(begun(span(7, 1, 30, 0, 100)));  // still throttled on CPU 1
  assembler.ended(span(7, 0, 20, 100, 100));
  assembler.ended(span(7, 0, 150, 200, 200));
  CHECK(settled(assembler, 1000).empty());
  REQUIRE(assembler.open_spans().size() == 1);
  CHECK(assembler.open_spans()[0].cpu == 1);
  assembler.ended(span(7, 1, 30, 200, 100));  // it overlapped both
  const auto episodes = settled(assembler, 1000);
  REQUIRE(episodes.size() == 1);
  CHECK(episodes[0].start_ns == 20 * kMs);
  CHECK(episodes[0].end_ns == 200 * kMs);
  CHECK(episodes[0].refills == 2);
  CHECK(episodes[0].spans == 3);
}

TEST_CASE("shouldLetAnotherGroupsOpenSpanHoldNothing", "[container][episode_assembler]") {
  EpisodeAssembler assembler;
  assembler.began(begun(span(9, 1, 30, 0, 100)));
  assembler.ended(span(7, 0, 20, 100, 100));
  CHECK(settled(assembler, 500).size() == 1);
}

TEST_CASE("shouldGiveUpASpanWhoseEndNeverCame", "[container][episode_assembler]") {
  EpisodeAssembler assembler(AssemblerSettings{.abandon_ns = 1000 * kMs});
  assembler.began(begun(span(7, 1, 30, 0, 100)));
  assembler.ended(span(7, 0, 20, 100, 100));
  CHECK(settled(assembler, 1000).empty());
  CHECK(assembler.abandoned() == 0);
  const auto episodes = settled(assembler, 1031);
  CHECK(assembler.abandoned() == 1);
  REQUIRE(episodes.size() == 1);
  CHECK(episodes[0].spans == 1);
}

TEST_CASE("shouldTakeASpanWhoseBeginWasLost", "[container][episode_assembler]") {
  EpisodeAssembler assembler;
  ThrottleSpan inexact = span(7, 0, 20, 100, 100);
  inexact.end_exact = false;
  assembler.ended(inexact);
  const auto episodes = settled(assembler, 500);
  REQUIRE(episodes.size() == 1);
  CHECK_FALSE(episodes[0].end_exact);
}

TEST_CASE("shouldGiveUpAnOpenSpanWhenItsCpuBeginsAnother", "[container][episode_assembler]") {
  // CPU 0's end report of the first throttle was lost.
  EpisodeAssembler assembler;
  assembler.began(begun(span(7, 0, 20, 0, 100)));
  assembler.began(begun(span(7, 0, 120, 0, 200)));
  REQUIRE(assembler.open_spans().size() == 1);
  CHECK(assembler.open_spans()[0].start_ns == 120 * kMs);
  CHECK(assembler.abandoned() == 1);
  assembler.ended(span(7, 0, 120, 200, 200));
  CHECK(assembler.open_spans().empty());
  CHECK(settled(assembler, 500).size() == 1);
}

TEST_CASE("shouldCountOnlyWhatTheKernelTimed", "[container][episode_assembler]") {
  // CPU 0 was throttled at 20 ms but its task was taken off only at 24 ms (another task ran
  // meanwhile); CPU 1 got its quota back before any task was taken off.
  EpisodeAssembler assembler;
  ThrottleSpan late = span(7, 0, 20, 100, 100);
  late.timed_from_ns = 24 * kMs;
  ThrottleSpan never = span(7, 1, 90, 100, 100);
  never.timed_from_ns = 0;
  assembler.ended(late);
  assembler.ended(never);
  const auto episodes = settled(assembler, 500);
  REQUIRE(episodes.size() == 1);
  CHECK(episodes[0].start_ns == 20 * kMs);
  CHECK(episodes[0].throttled_ns == 76 * kMs);
  CHECK(episodes[0].cpus == 2);
}
