// The episode recorder against the kernel: a CPU burner in a cgroup of its own with a quota of
// 20 ms per 100 ms, its episodes compared with the group's cpu.stat and with the gaps the burner
// itself saw in its CPU time. Needs root, a kernel that lets the program load and a cpu controller
// it can make a cgroup in (v1 or v2); elsewhere the tests are skipped with a warning, unless
// FLIGHTREC_REQUIRE_EBPF=1 (CI) turns that into a failure.
#include "flightrec/container/throttle/episode_recorder.h"

#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "flightrec/common/clock.h"
#include "flightrec/ebpf/bpf_run_stats.h"
#include "quota_cgroup.h"

using namespace flightrec::container;
using flightrec::clock_ns;
using flightrec::testing::CpuHierarchy;
using flightrec::testing::QuotaCgroup;

namespace {

constexpr int64_t kMs = 1'000'000;
constexpr int64_t kTick = 4 * kMs;  // a scheduler tick at HZ=250, the coarsest kernel we run on

bool ebpf_required() {
  const char* required = std::getenv("FLIGHTREC_REQUIRE_EBPF");
  return required != nullptr && std::string(required) == "1";
}

// Skips the test (or fails it under FLIGHTREC_REQUIRE_EBPF=1) with `why`.
#define SKIP_OR_FAIL(why)                                                \
  do {                                                                   \
    if (ebpf_required()) FAIL("FLIGHTREC_REQUIRE_EBPF=1 but " << (why)); \
    WARN("SKIPPED: " << (why));                                          \
    return;                                                              \
  } while (false)

// The group's episodes, drained until it has no span open and two drains past the settle delay
// brought nothing more (at most 2 s).
std::vector<ThrottleEpisode> drain_all(EpisodeRecorder& recorder, uint64_t id) {
  std::vector<ThrottleEpisode> all;
  for (int quiet = 0, round = 0; quiet < 2 && round < 100; ++round) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    std::vector<ThrottleEpisode> episodes;
    recorder.drain(episodes);
    const size_t before = all.size();
    for (const ThrottleEpisode& episode : episodes) {
      if (episode.cgroup_id == id) all.push_back(episode);
    }
    const auto open = recorder.throttled_now();
    const bool throttled = std::any_of(
        open.begin(), open.end(), [&](const ThrottleSpan& span) { return span.cgroup_id == id; });
    quiet = all.size() == before && !throttled ? quiet + 1 : 0;
  }
  return all;
}

struct Setup {
  std::optional<CpuHierarchy> hierarchy;
  std::unique_ptr<EpisodeRecorder> recorder;
  std::string why_not;
};

Setup set_up() {
  Setup setup;
  if (geteuid() != 0) {
    setup.why_not = "not running as root";
    return setup;
  }
  setup.hierarchy = flightrec::testing::find_cpu_hierarchy();
  if (!setup.hierarchy) {
    setup.why_not = "no cgroup hierarchy with the cpu controller is mounted";
    return setup;
  }
  auto recorder = make_episode_recorder();
  if (!recorder) {
    setup.why_not = "the episode recorder did not start: " + recorder.error();
    return setup;
  }
  setup.recorder = std::move(*recorder);
  return setup;
}

std::optional<flightrec::ebpf::BpfProgramRun> throttle_program_run() {
  const flightrec::ebpf::OwnBpfPrograms programs("/proc/self/fd",
                                                 flightrec::ebpf::read_bpf_program);
  for (const auto& program : programs.read()) {
    if (program.name == "throttle_switch") return program;
  }
  return std::nullopt;
}

}  // namespace

TEST_CASE("shouldRecordWhatCpuStatCountsWithinATickOfTheBurnersGaps",
          "[container][episode_recorder]") {
  Setup setup = set_up();
  if (!setup.recorder) SKIP_OR_FAIL(setup.why_not);
  QuotaCgroup cgroup(*setup.hierarchy, "one", 20'000, 100'000);
  if (!cgroup.error().empty()) SKIP_OR_FAIL(cgroup.error());
  const flightrec::ebpf::BpfStatsSwitch stats;  // the kernel times our program while it is held
  const auto runs_before = throttle_program_run();

  auto* gaps = static_cast<QuotaCgroup::Gaps*>(mmap(nullptr, sizeof(QuotaCgroup::Gaps),
                                                    PROT_READ | PROT_WRITE,
                                                    MAP_SHARED | MAP_ANONYMOUS, -1, 0));
  REQUIRE(gaps != MAP_FAILED);
  const int64_t started = clock_ns(CLOCK_MONOTONIC);
  // On one CPU: a burner the load balancer moves runs on the leftover runtime of another CPU while
  // its first queue stays throttled, which makes its own gaps no reference for the episode's ends.
  REQUIRE(cgroup.start_burner(1, 1000 * kMs, gaps, 0));
  CHECK(cgroup.wait_burner());
  const int64_t ran_ns = clock_ns(CLOCK_MONOTONIC) - started;
  const auto [kernel_periods, kernel_ns] = cgroup.throttled();
  const std::vector<ThrottleEpisode> episodes = drain_all(*setup.recorder, cgroup.id());
  const auto runs_after = throttle_program_run();

  // 1 s at 20 % of a CPU is throttled in about every period; a loaded machine gives it less.
  REQUIRE(kernel_periods >= 5);
  REQUIRE(setup.recorder->totals().contains(cgroup.id()));
  const ThrottleTotals& totals = setup.recorder->totals().at(cgroup.id());
  const ThrottleLosses losses = setup.recorder->losses();
  CHECK(losses.dropped == 0);
  CHECK(losses.untracked == 0);
  CHECK(losses.abandoned == 0);
  // The recorder times each episode by the same rq clock differences the kernel adds up, so the
  // sums agree to the nanosecond on v1; cpu.stat on v2 rounds down to a microsecond. An end seen
  // rather than read from the kernel (kernels before 6.8) may be a tick late.
  int64_t inexact = 0;
  for (const ThrottleEpisode& episode : episodes) inexact += episode.end_exact ? 0 : 1;
  const int64_t tolerance_ns = (cgroup.v2() ? 1000 : 0) + inexact * kTick;
  CHECK(std::abs(totals.throttled_ns - kernel_ns) <= tolerance_ns);
  // nr_throttled counts the refills at which the group had a queue on its throttled list; the
  // recorder counts those at which it had a task taken off. With a burner that never sleeps the
  // two differ only if a refill falls in the microseconds between the two, so by at most one.
  CHECK(std::abs(static_cast<int64_t>(totals.refills) - static_cast<int64_t>(kernel_periods)) <= 1);
  CHECK(totals.episodes == episodes.size());

  // Each episode against two references the recorder does not use. Its end against the kernel's
  // period timer: the refill that lets the group run again, due at period_end_ns. Its start against
  // the burner's own view: the throttle switched it out, and the start is seen at that switch. The
  // burner runs again only after the end, but when depends on the machine's other load: the
  // unthrottled task waits for the CPU's next preemption point, a tick or more on a busy machine,
  // so that wait is only bounded well below a period (a wrong period would be 100 ms off).
  size_t matched = 0;
  size_t while_spinning = 0;
  for (const ThrottleEpisode& episode : episodes) {
    INFO("episode " << episode.start_ns << ".." << episode.end_ns << " (refill due "
                    << episode.period_end_ns << (episode.end_exact ? ", exact end)" : ")"));
    CHECK(episode.period_ns == 100 * kMs);
    CHECK(episode.quota_ns == 20 * kMs);
    CHECK(episode.cpus == 1);
    // Let run again by the refill (the period timer), a few microseconds after it is due; an end
    // the kernel kept no time of (a throttle it never counted, as of a burner on its way out) is
    // placed at the refill or where that CPU's next context switch saw it.
    CHECK(episode.end_ns >= episode.period_end_ns);
    CHECK(episode.end_ns - episode.period_end_ns < (episode.end_exact ? kTick : 25 * kMs));
    // A throttle can also catch the burner on its way out, after it stopped noting its gaps.
    if (episode.start_ns >= gaps->last_ns) continue;
    ++while_spinning;
    const auto* gap = std::find_if(gaps->gap, gaps->gap + gaps->count, [&](const auto& g) {
      return g.from_ns <= episode.end_ns && episode.start_ns <= g.to_ns;
    });
    if (gap == gaps->gap + gaps->count) continue;
    ++matched;
    INFO("burner off " << gap->from_ns << ".." << gap->to_ns);
    CHECK(episode.start_ns >= gap->from_ns);
    CHECK(episode.start_ns - gap->from_ns < kTick);
    CHECK(episode.end_ns <= gap->to_ns);
    CHECK(gap->to_ns - episode.end_ns < 25 * kMs);
  }
  CHECK(matched == while_spinning);

  std::printf(
      "throttle recorder: %zu episodes over %.2f s; recorded %.3f ms in %llu refills, "
      "cpu.stat %.3f ms in %llu\n",
      episodes.size(), static_cast<double>(ran_ns) / 1e9,
      static_cast<double>(totals.throttled_ns) / 1e6,
      static_cast<unsigned long long>(totals.refills), static_cast<double>(kernel_ns) / 1e6,
      static_cast<unsigned long long>(kernel_periods));
  if (stats.on() && runs_before && runs_after) {
    const uint64_t runs = runs_after->run_count - runs_before->run_count;
    const uint64_t run_ns = runs_after->run_time_ns - runs_before->run_time_ns;
    std::printf("throttle recorder: %llu context switches (%.0f/s), %.0f ns of BPF per switch\n",
                static_cast<unsigned long long>(runs),
                static_cast<double>(runs) * 1e9 / static_cast<double>(ran_ns),
                runs == 0 ? 0.0 : static_cast<double>(run_ns) / static_cast<double>(runs));
  }
  munmap(gaps, sizeof(QuotaCgroup::Gaps));
}

TEST_CASE("shouldMakeOneEpisodePerPeriodOfAGroupThrottledOnSeveralCpus",
          "[container][episode_recorder]") {
  Setup setup = set_up();
  if (!setup.recorder) SKIP_OR_FAIL(setup.why_not);
  QuotaCgroup cgroup(*setup.hierarchy, "two", 20'000, 100'000);
  if (!cgroup.error().empty()) SKIP_OR_FAIL(cgroup.error());

  REQUIRE(cgroup.start_burner(2, 600 * kMs));
  CHECK(cgroup.wait_burner());
  const auto [kernel_periods, kernel_ns] = cgroup.throttled();
  const std::vector<ThrottleEpisode> episodes = drain_all(*setup.recorder, cgroup.id());

  REQUIRE(kernel_periods >= 3);
  const ThrottleTotals& totals = setup.recorder->totals().at(cgroup.id());
  int64_t inexact = 0;
  for (const ThrottleEpisode& episode : episodes) inexact += episode.end_exact ? 0 : 1;
  // Two queues throttled at once both count in cpu.stat's time, and in the recorder's.
  CHECK(std::abs(totals.throttled_ns - kernel_ns) <= (cgroup.v2() ? 2000 : 0) + inexact * kTick);
  CHECK(std::abs(static_cast<int64_t>(totals.refills) - static_cast<int64_t>(kernel_periods)) <= 1);
  // However many CPUs ran out, one episode per period.
  std::set<int64_t> periods;
  uint32_t most_cpus = 0;
  for (const ThrottleEpisode& episode : episodes) {
    CHECK(periods.insert(episode.period_end_ns).second);
    most_cpus = std::max(most_cpus, episode.cpus);
  }
  std::printf("throttle recorder: 2 burners, %zu episodes, at most %u CPUs in one\n",
              episodes.size(), most_cpus);
}
