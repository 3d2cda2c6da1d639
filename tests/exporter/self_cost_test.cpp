#include <pthread.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <ctime>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "fake_proc_tree.h"
#include "flightrec/exporter/metrics/collectors.h"
#include "flightrec/exporter/metrics/thread_cpu.h"
#include "flightrec/exposition/collectable.h"

using namespace flightrec;
using namespace flightrec::exporter::metrics;
using testing::FakeProcTree;

namespace {

void add_task(const FakeProcTree& proc, int tid, std::string_view comm, std::string_view ns) {
  const std::string dir = "self/task/" + std::to_string(tid);
  proc.file(dir + "/comm", std::string(comm) + "\n")
      .file(dir + "/schedstat", std::string(ns) + " 123 45\n");
}

uint64_t of(const ThreadCpuReader::Totals& totals, ThreadGroup group) {
  return totals[static_cast<size_t>(group)];
}

// The families one collect() gives, by name.
std::vector<prometheus::MetricFamily> collect(const exposition::Collectable& collector) {
  std::vector<prometheus::MetricFamily> families;
  exposition::ExtrasByFamily extras;
  exposition::Families out(families, extras, 0, 0);
  collector.collect(out);
  return families;
}

const prometheus::MetricFamily* family(const std::vector<prometheus::MetricFamily>& families,
                                       std::string_view name) {
  for (const auto& f : families) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

ebpf::BpfProgramReader fake_programs() {
  // fd 3 and 4 hold the same program (skeleton and link); fd 5 another of the same name.
  return [](int fd) -> std::optional<ebpf::BpfProgramRun> {
    if (fd == 5)
      return ebpf::BpfProgramRun{
          .id = 8, .name = "on_send", .run_time_ns = 1'000'000'000, .run_count = 7};
    return ebpf::BpfProgramRun{
        .id = 2, .name = "on_send", .run_time_ns = 500'000'000, .run_count = 3};
  };
}

// A process holding three program fds (two programs), a map and a file.
void add_bpf_fds(const FakeProcTree& proc, std::string_view stats_enabled) {
  add_task(proc, 1, "flightrec", "10");
  proc.symlink("self/fd/3", "anon_inode:bpf-prog")
      .symlink("self/fd/4", "anon_inode:bpf-prog")
      .symlink("self/fd/5", "anon_inode:bpf-prog")
      .symlink("self/fd/6", "anon_inode:bpf-map")
      .symlink("self/fd/7", "/dev/null")
      .file("sys/kernel/bpf_stats_enabled", stats_enabled);
}

}  // namespace

TEST_CASE("shouldGroupTheDaemonsThreadsByName", "[exporter][self_cost]") {
  FakeProcTree proc;
  add_task(proc, 100, "flightrec", "1000");
  add_task(proc, 101, "sampler", "2000");
  add_task(proc, 102, "recorder", "300");
  add_task(proc, 103, "processes", "40");
  add_task(proc, 104, "civetweb-worker", "5");
  add_task(proc, 105, "civetweb-master", "6");
  add_task(proc, 106, "incident-writer", "7");
  ThreadCpuReader reader(proc.root());
  ThreadCpuReader::Totals totals{};
  REQUIRE(reader.read(totals));
  CHECK(of(totals, ThreadGroup::sampler) == 2000);
  CHECK(of(totals, ThreadGroup::recorder) == 300);
  CHECK(of(totals, ThreadGroup::processes) == 40);
  CHECK(of(totals, ThreadGroup::http) == 11);
  CHECK(of(totals, ThreadGroup::other) == 1007);
}

TEST_CASE("shouldLabelEveryThreadGroupByTheNameItsThreadsTake", "[exporter][self_cost]") {
  for (const auto& [group, name] :
       {std::pair{ThreadGroup::sampler, "sampler"}, std::pair{ThreadGroup::recorder, "recorder"},
        std::pair{ThreadGroup::processes, "processes"}, std::pair{ThreadGroup::http, "http"},
        std::pair{ThreadGroup::other, "other"}}) {
    CHECK(thread_group_name(group) == name);
  }
  for (const auto group : {ThreadGroup::sampler, ThreadGroup::recorder, ThreadGroup::processes}) {
    CHECK(thread_group_of(thread_group_name(group)) == group);
  }
  CHECK(kThreadGroups == static_cast<size_t>(ThreadGroup::other) + 1);
}

TEST_CASE("shouldKeepTheTimeOfThreadsThatExited", "[exporter][self_cost]") {
  FakeProcTree proc;
  add_task(proc, 200, "civetweb-worker", "5000");
  add_task(proc, 201, "civetweb-worker", "100");
  ThreadCpuReader reader(proc.root());
  ThreadCpuReader::Totals totals{};
  REQUIRE(reader.read(totals));
  CHECK(of(totals, ThreadGroup::http) == 5100);
  proc.remove("self/task/200");
  add_task(proc, 201, "civetweb-worker", "150");
  REQUIRE(reader.read(totals));
  CHECK(of(totals, ThreadGroup::http) == 5150);
  // A newer thread reusing tid 201 starts from zero: the old one's time stays counted.
  add_task(proc, 201, "civetweb-worker", "20");
  REQUIRE(reader.read(totals));
  CHECK(of(totals, ThreadGroup::http) == 5170);
}

TEST_CASE("shouldFollowAThreadThatNamesItselfAfterARead", "[exporter][self_cost]") {
  FakeProcTree proc;
  add_task(proc, 400, "flightrec", "10");  // started, not yet named
  ThreadCpuReader reader(proc.root());
  ThreadCpuReader::Totals totals{};
  REQUIRE(reader.read(totals));
  CHECK(of(totals, ThreadGroup::other) == 10);
  add_task(proc, 400, "recorder", "5000");
  REQUIRE(reader.read(totals));
  CHECK(of(totals, ThreadGroup::recorder) == 5000);
  CHECK(of(totals, ThreadGroup::other) == 10);  // never backwards
}

TEST_CASE("shouldSkipTasksItCannotParseAndSayWhenThereAreNone", "[exporter][self_cost]") {
  FakeProcTree proc;
  add_task(proc, 300, "sampler", "70");
  add_task(proc, 301, "sampler", "not-a-number");
  proc.file("self/task/302/comm", "sampler\n");  // no schedstat
  proc.file("self/task/junk/schedstat", "99 1 1\n");
  ThreadCpuReader reader(proc.root());
  ThreadCpuReader::Totals totals{};
  REQUIRE(reader.read(totals));
  CHECK(of(totals, ThreadGroup::sampler) == 70);
  CHECK_FALSE(ThreadCpuReader(proc.root() / "missing").read(totals));
  uint64_t ns = 0;
  CHECK_FALSE(parse_schedstat_ns("", ns));
  CHECK_FALSE(parse_schedstat_ns("12x 3", ns));
  CHECK(parse_schedstat_ns("12 3 4", ns));
  CHECK(ns == 12);
}

TEST_CASE("shouldCountARealThreadsCpuUnderItsName", "[exporter][self_cost]") {
  ThreadCpuReader reader;  // the live /proc
  ThreadCpuReader::Totals before{};
  REQUIRE(reader.read(before));
  // The spinner runs until it has itself used 30 ms of CPU (its own thread clock), however long a
  // busy machine takes to give it that, and then waits while the reader looks.
  constexpr int64_t kSpinNs = 30'000'000;
  std::atomic<bool> spun{false};
  std::atomic<bool> stop{false};
  std::thread spinner([&] {
    pthread_setname_np(pthread_self(), "sampler");
    timespec used{};
    do {
      clock_gettime(CLOCK_THREAD_CPUTIME_ID, &used);
    } while (used.tv_sec * 1'000'000'000LL + used.tv_nsec < kSpinNs);
    spun = true;
    while (!stop.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  });
  while (!spun.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  ThreadCpuReader::Totals during{};
  REQUIRE(reader.read(during));
  stop = true;
  spinner.join();
  ThreadCpuReader::Totals after{};
  REQUIRE(reader.read(after));
  // Counted under its name, and not lost once the thread is gone.
  CHECK(of(during, ThreadGroup::sampler) - of(before, ThreadGroup::sampler) >= kSpinNs);
  CHECK(of(after, ThreadGroup::sampler) >= of(during, ThreadGroup::sampler));
  CHECK(of(after, ThreadGroup::other) > 0);
}

TEST_CASE("shouldExportEveryThreadGroupAndOurBpfProgramsRunTime", "[exporter][self_cost]") {
  const FakeProcTree proc;
  add_bpf_fds(proc, "1\n");
  add_task(proc, 2, "recorder", "2500000000");
  const SelfCostCollector collector(
      {.procfs = proc.root(), .bpf_reader = fake_programs(), .enable_bpf_stats = false});
  const auto families = collect(collector);
  const auto* cpu = family(families, "flightrec_self_cpu_seconds_total");
  REQUIRE(cpu != nullptr);
  REQUIRE(cpu->metric.size() == kThreadGroups);
  CHECK(cpu->metric[1].label[0].value == "recorder");
  CHECK(cpu->metric[1].counter.value == Approx(2.5));
  CHECK(family(families, "flightrec_bpf_stats_enabled")->metric[0].gauge.value == 1);
  const auto* run = family(families, "flightrec_bpf_run_seconds_total");
  REQUIRE(run != nullptr);
  REQUIRE(run->metric.size() == 1);  // two programs named on_send make one series
  CHECK(run->metric[0].label[0].value == "on_send");
  CHECK(run->metric[0].counter.value == Approx(1.5));
  CHECK(family(families, "flightrec_bpf_run_count_total")->metric[0].counter.value == 10);
}

TEST_CASE("shouldNotExportBpfRunTimeTheKernelDoesNotCount", "[exporter][self_cost]") {
  const FakeProcTree proc;
  add_bpf_fds(proc, "0\n");
  const auto families = collect(SelfCostCollector(
      {.procfs = proc.root(), .bpf_reader = fake_programs(), .enable_bpf_stats = false}));
  CHECK(family(families, "flightrec_bpf_stats_enabled")->metric[0].gauge.value == 0);
  CHECK(family(families, "flightrec_bpf_run_seconds_total") == nullptr);
  CHECK(family(families, "flightrec_bpf_run_count_total") == nullptr);
}

TEST_CASE("shouldExportNoBpfFamiliesWithoutBpfPrograms", "[exporter][self_cost]") {
  FakeProcTree proc;
  add_task(proc, 1, "flightrec", "10");
  proc.symlink("self/fd/3", "anon_inode:bpf-map").file("sys/kernel/bpf_stats_enabled", "1\n");
  const auto families =
      collect(SelfCostCollector({.procfs = proc.root(), .bpf_reader = fake_programs()}));
  REQUIRE(families.size() == 1);
  CHECK(families[0].name == "flightrec_self_cpu_seconds_total");
}
