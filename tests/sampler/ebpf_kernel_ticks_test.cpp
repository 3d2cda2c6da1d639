// The sampler's in-kernel tick (sampler/bpf/cpu_ticks.bpf.c) against the live kernel: ticks at
// its period, per-CPU times and context switches that agree with /proc/stat read right after, a
// CPU kept busy seen busy, and ticks left undrained past the ring's span counted as lost. Needs
// root and a kernel that loads the program; elsewhere the tests are skipped with a warning,
// unless FLIGHTREC_REQUIRE_EBPF=1 (CI) turns that into a failure.
#include "flightrec/sampler/ebpf_kernel_ticks.h"

#include <pthread.h>
#include <sched.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "flightrec/sampler/file_reader.h"
#include "flightrec/sampler/sources/stat.h"
#include "temp_dir.h"

namespace {

using flightrec::sampler::KernelTickBatch;
using flightrec::sampler::KernelTicks;
using namespace std::chrono_literals;

constexpr int64_t kMs = 1'000'000;
constexpr auto kPeriod = 4ms;
constexpr size_t kIdle = 3;
constexpr size_t kIowait = 4;
constexpr size_t kGuest = 8;

bool ebpf_required() {
  const char* required = std::getenv("FLIGHTREC_REQUIRE_EBPF");
  return required != nullptr && std::string(required) == "1";
}

std::unique_ptr<KernelTicks> ticks_or_skip(std::chrono::nanoseconds period = kPeriod) {
  const bool must_run = ebpf_required();
  if (geteuid() != 0) {
    if (must_run) FAIL("FLIGHTREC_REQUIRE_EBPF=1 but not running as root");
    WARN("SKIPPED: the in-kernel tick needs root");
    return nullptr;
  }
  auto ticks = flightrec::sampler::make_kernel_ticks(period, "/proc");
  if (!ticks) {
    if (must_run) FAIL("the in-kernel tick did not start: " << ticks.error());
    WARN("SKIPPED: the in-kernel tick did not start: " << ticks.error());
    return nullptr;
  }
  return *std::move(ticks);
}

int64_t monotonic_ns() {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<int64_t>(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
}

int64_t ns_per_user_hz() { return 1'000'000'000 / sysconf(_SC_CLK_TCK); }

// /proc/stat right now: its per-CPU values in ns by CPU id, and ctxt.
struct ProcStat {
  std::vector<uint32_t> cpu_ids;
  std::vector<std::array<int64_t, flightrec::sampler::kStatCpuModes>> ns;  // by position
  int64_t context_switches = 0;
  int64_t read_at_ns = 0;
};

ProcStat read_proc_stat() {
  using namespace flightrec::sampler;
  const std::string text = read_file("/proc/stat");
  ProcStat stat;
  stat.read_at_ns = monotonic_ns();
  const StatLayout layout = parse_stat_layout(text);
  std::vector<int64_t> values(stat_value_count(layout));
  REQUIRE(parse_stat(text, layout, values) == SampleStatus::ok);
  stat.cpu_ids = layout.cpu_ids;
  for (size_t line = 0; line < layout.cpu_ids.size(); ++line) {
    auto& row = stat.ns.emplace_back();
    for (size_t mode = 0; mode < kStatCpuModes; ++mode) {
      row[mode] = values[(line + 1) * kStatCpuModes + mode] * ns_per_user_hz();
    }
  }
  stat.context_switches = values[(layout.cpu_ids.size() + 1) * kStatCpuModes];
  return stat;
}

// Every tick since the last drain, after letting `wait` pass.
KernelTickBatch drain_after(KernelTicks& ticks, std::chrono::nanoseconds wait) {
  std::this_thread::sleep_for(wait);
  KernelTickBatch batch;
  ticks.drain(batch);
  return batch;
}

// Time a CPU spent neither idle nor waiting, guests excluded (already in user and nice).
int64_t busy_ns(const flightrec::sampler::KernelCpuTimes& cpu) {
  int64_t busy = 0;
  for (size_t mode = 0; mode < kGuest; ++mode) {
    if (mode != kIdle && mode != kIowait) busy += static_cast<int64_t>(cpu.ns[mode]);
  }
  return busy;
}

void spin_on_cpu(size_t cpu, std::chrono::nanoseconds how_long) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  REQUIRE(pthread_setaffinity_np(pthread_self(), sizeof(set), &set) == 0);
  const int64_t until = monotonic_ns() + how_long.count();
  volatile uint64_t sink = 0;
  while (monotonic_ns() < until) sink = sink + 1;
}

}  // namespace

TEST_CASE("kernel ticks arrive at their period with nothing lost when drained", "[kernel_ticks]") {
  auto ticks = ticks_or_skip();
  if (ticks == nullptr) return;
  CHECK(ticks->period() == kPeriod);
  CHECK(ticks->cpu_count() >= static_cast<size_t>(sysconf(_SC_NPROCESSORS_ONLN)));
  drain_after(*ticks, 0ms);  // the start-up check's ticks

  const KernelTickBatch batch = drain_after(*ticks, 200ms);
  CHECK(batch.cpu_count == ticks->cpu_count());
  CHECK(batch.cpu_times.size() == batch.heads.size() * batch.cpu_count);
  CHECK(batch.heads.size() >= 45);
  CHECK(batch.heads.size() <= 52);
  std::vector<int64_t> gaps;
  for (size_t i = 1; i < batch.heads.size(); ++i) {
    gaps.push_back(batch.heads[i].mono_ns - batch.heads[i - 1].mono_ns);
  }
  REQUIRE(!gaps.empty());
  CHECK(*std::min_element(gaps.begin(), gaps.end()) > 0);
  std::sort(gaps.begin(), gaps.end());
  const int64_t median = gaps[gaps.size() / 2];
  CHECK(median > 4 * kMs - kMs / 4);
  CHECK(median < 4 * kMs + kMs / 4);
  CHECK(gaps.back() < 3 * 4 * kMs);
  CHECK(ticks->lost() == 0);
}

TEST_CASE("the newest kernel tick agrees with /proc/stat read right after", "[kernel_ticks]") {
  auto ticks = ticks_or_skip();
  if (ticks == nullptr) return;
  const KernelTickBatch batch = drain_after(*ticks, 20ms);
  const ProcStat stat = read_proc_stat();
  REQUIRE(!batch.heads.empty());
  const size_t newest = batch.heads.size() - 1;
  const auto cpus = batch.cpus_of(newest);
  const int64_t elapsed = stat.read_at_ns - batch.heads[newest].mono_ns;
  const int64_t step = ns_per_user_hz();
  for (size_t line = 0; line < stat.cpu_ids.size(); ++line) {
    const uint32_t cpu = stat.cpu_ids[line];
    REQUIRE(cpu < cpus.size());
    CHECK(cpus[cpu].online == 1);  // a CPU /proc/stat lists
    for (size_t mode = 0; mode < flightrec::sampler::kStatCpuModes; ++mode) {
      INFO("CPU " << cpu << " column " << mode << ", /proc/stat read " << elapsed << " ns later");
      const int64_t ahead = stat.ns[line][mode] - static_cast<int64_t>(cpus[cpu].ns[mode]);
      CHECK(ahead >= -step);
      CHECK(ahead <= elapsed + step);
    }
  }
  // Context switches go on between the tick and the read, a few hundred a second here.
  const auto from_tick = static_cast<int64_t>(batch.heads[newest].context_switches);
  CHECK(stat.context_switches >= from_tick);
  CHECK(stat.context_switches - from_tick < 2000);
  CHECK(batch.heads[newest].context_switches > 0);
}

TEST_CASE("a CPU kept busy for 100 ms shows 100 ms more busy time", "[kernel_ticks]") {
  if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
    WARN("SKIPPED: needs a second CPU");
    return;
  }
  auto ticks = ticks_or_skip();
  if (ticks == nullptr) return;
  constexpr size_t kBusyCpu = 1;
  const KernelTickBatch before = drain_after(*ticks, 10ms);
  REQUIRE(!before.heads.empty());
  const int64_t start = monotonic_ns();
  std::thread([] { spin_on_cpu(kBusyCpu, 100ms); }).join();
  const int64_t window = monotonic_ns() - start;
  const KernelTickBatch after = drain_after(*ticks, 2 * kPeriod);
  REQUIRE(!after.heads.empty());

  const auto& first = before.cpus_of(before.heads.size() - 1)[kBusyCpu];
  const auto& last = after.cpus_of(after.heads.size() - 1)[kBusyCpu];
  const int64_t ticked = after.heads.back().mono_ns - before.heads.back().mono_ns;
  const int64_t busy = busy_ns(last) - busy_ns(first);
  INFO("busy " << busy / kMs << " ms over " << ticked / kMs << " ms of ticks, spun " << window / kMs
               << " ms");
  // The scheduler tick (4 ms here) accounts busy time in its steps.
  CHECK(busy >= window - 8 * kMs);
  CHECK(busy <= ticked + 8 * kMs);
  const int64_t idle = static_cast<int64_t>(last.ns[kIdle] + last.ns[kIowait]) -
                       static_cast<int64_t>(first.ns[kIdle] + first.ns[kIowait]);
  CHECK(idle <= ticked - window + 8 * kMs);
}

TEST_CASE("kernel ticks left undrained past the ring's 2 s are counted as lost", "[kernel_ticks]") {
  auto ticks = ticks_or_skip();
  if (ticks == nullptr) return;
  drain_after(*ticks, 0ms);
  const KernelTickBatch kept = drain_after(*ticks, 2500ms);
  // 2.5 s of 4 ms ticks: the ring keeps the first 2 s (500), the last ~125 are dropped.
  CHECK(kept.heads.size() >= 495);
  CHECK(kept.heads.size() <= 505);
  CHECK(ticks->lost() >= 100);
  CHECK(ticks->lost() <= 135);
  // Drained again, it records again.
  const uint64_t lost = ticks->lost();
  CHECK(drain_after(*ticks, 50ms).heads.size() >= 10);
  CHECK(ticks->lost() == lost);
}

TEST_CASE("a /proc/stat that disagrees with the kernel tick refuses it", "[kernel_ticks]") {
  if (ticks_or_skip() == nullptr) return;
  // The live file with 1000 s more user time on CPU 0: what a program reading the wrong counters
  // would look like from the other side.
  std::string text = flightrec::sampler::read_file("/proc/stat");
  const size_t line = text.find("\ncpu0 ");
  REQUIRE(line != std::string::npos);
  const size_t user_at = line + 6;
  const size_t user_end = text.find(' ', user_at);
  const uint64_t user = std::stoull(text.substr(user_at, user_end - user_at));
  text.replace(user_at, user_end - user_at,
               std::to_string(user + 1000 * static_cast<uint64_t>(sysconf(_SC_CLK_TCK))));
  const flightrec::testing::TempDir root("kernel-ticks");
  root.write("stat", text);

  const auto ticks = flightrec::sampler::make_kernel_ticks(kPeriod, root.path().string());
  REQUIRE_FALSE(ticks);
  const std::string& why_not = ticks.error();
  CHECK_THAT(why_not, Catch::Matchers::Contains("disagrees with " + root.file("stat").string()));
  CHECK_THAT(why_not, Catch::Matchers::Contains("CPU 0 user"));
}

TEST_CASE("a proc root without stat refuses the kernel tick naming the file", "[kernel_ticks]") {
  const auto ticks = flightrec::sampler::make_kernel_ticks(kPeriod, "/nonexistent-proc-root");
  REQUIRE_FALSE(ticks);
  const std::string& why_not = ticks.error();
  if (why_not.starts_with("built without eBPF")) {
    if (ebpf_required()) FAIL("FLIGHTREC_REQUIRE_EBPF=1 but " << why_not);
    WARN("SKIPPED: " << why_not);
    return;
  }
  CHECK_THAT(why_not, Catch::Matchers::Contains("/nonexistent-proc-root/stat"));
}
