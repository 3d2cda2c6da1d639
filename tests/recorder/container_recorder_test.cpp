// The container tier's recorder over copies of the cgroup fixture trees, ticked by hand: what the
// slow round reads and publishes, how the fast tier is chosen and what it resolves, containers
// that come and go, and names from the node's files.
#include "flightrec/recorder/container_recorder.h"

#include <catch2/catch.hpp>
#include <string>
#include <thread>

#include "fake_proc_tree.h"

using namespace flightrec;
using namespace flightrec::recorder;
using flightrec::testing::FakeProcTree;
using namespace std::chrono_literals;

namespace {

constexpr int64_t kMs = 1'000'000;
const std::string kA = "3f9c1e0b7d2a4c5e8f6a1b2c3d4e5f60718293a4b5c6d7e8f9a0b1c2d3e4f5a6";
const std::string kB = "b7e2d4c6a8f0e1d3c5b7a9f1e3d5c7b9a1f3e5d7c9b1a3f5e7d9c1b3a5f7e9d1";
const std::string kADir = "system.slice/docker-" + kA + ".scope";
const std::string kBDir = "system.slice/docker-" + kB + ".scope";

ContainerTierSettings test_settings() {
  ContainerTierSettings settings;
  settings.rate = 100ms;
  settings.fast_rate = 10ms;
  settings.fast_max = 1;
  settings.discovery_interval = 100ms;
  settings.window = 1s;
  return settings;
}

std::unique_ptr<ContainerRecorder> open_tier(const FakeProcTree& tree,
                                             ContainerTierSettings settings = test_settings()) {
  sampler::ProcRoot root;
  root.cgroupfs = tree.root();
  auto tier = ContainerRecorder::open(std::move(settings), root);
  INFO((tier ? "" : tier.error()));
  REQUIRE(tier.ok());
  return std::move(*tier);
}

// cpu.stat of v2 with these counters (the fixture's other lines do not matter here).
std::string cpu_stat(int64_t usage_us, int64_t periods, int64_t throttled, int64_t throttled_us) {
  return "usage_usec " + std::to_string(usage_us) + "\nuser_usec 0\nsystem_usec 0\nnr_periods " +
         std::to_string(periods) + "\nnr_throttled " + std::to_string(throttled) +
         "\nthrottled_usec " + std::to_string(throttled_us) + "\n";
}

const containers::ContainerView* find(const containers::ContainerTierSnapshot& snapshot,
                                      const std::string& id) {
  for (const auto& view : snapshot.containers) {
    if (view.info->ref.identity.id == id) return &view;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("shouldReadEveryContainerAndPublishItAtTheFirstSlowRound", "[recorder][containers]") {
  const FakeProcTree tree = FakeProcTree::copy_of("cgroup/v2-systemd-docker");
  auto tier = open_tier(tree);
  CHECK(tier->mode() == container::CgroupMode::unified);
  CHECK(tier->snapshot()->containers.empty());
  tier->tick(0);
  const auto snapshot = tier->snapshot();
  REQUIRE(snapshot->containers.size() == 2);
  const auto* a = find(*snapshot, kA);
  REQUIRE(a != nullptr);
  CHECK(a->read_ok);
  CHECK(a->stats.cpu.usage_us == 48213577);
  CHECK(a->stats.bandwidth.quota_us == 200000);
  CHECK(a->stats.memory.usage_bytes == 734003200);
  // One read: nothing to derive a rate from yet.
  CHECK_FALSE(a->signals.cpu_cores.has_value());
  CHECK(tier->stats().slow_rounds_total.load() == 1);
  CHECK(tier->stats().slow_reads_total.load() == 2);
  CHECK(tier->stats().discoveries_total.load() == 1);
}

TEST_CASE("shouldPutTheThrottledContainerInTheFastTierAndResolveEachPeriod",
          "[recorder][containers]") {
  const FakeProcTree tree = FakeProcTree::copy_of("cgroup/v2-systemd-docker");
  const std::string a_stat = kADir + "/cpu.stat";
  const std::string b_stat = kBDir + "/cpu.stat";
  tree.file(a_stat, cpu_stat(1'000'000, 100, 50, 4'000'000));
  tree.file(b_stat, cpu_stat(5'000'000, 0, 0, 0));
  auto tier = open_tier(tree);
  tier->tick(0);
  // A: one 100 ms period with 20 ms run and 80 ms throttled (its period is 100 ms). B: busy.
  tree.file(a_stat, cpu_stat(1'020'000, 101, 51, 4'080'000));
  tree.file(b_stat, cpu_stat(5'050'000, 0, 0, 0));
  for (int64_t t = 10; t < 100; t += 10) tier->tick(t * kMs);
  CHECK(tier->stats().fast_reads_total.load() == 0);  // nothing was chosen before the round
  tier->tick(100 * kMs);
  auto snapshot = tier->snapshot();
  const auto* a = find(*snapshot, kA);
  REQUIRE(a != nullptr);
  CHECK(*a->signals.cpu_cores == Approx(0.2));
  CHECK(*a->signals.throttled_share == Approx(0.8));
  CHECK(*a->signals.throttled_periods_ratio == 1.0);
  CHECK(a->signals.fast);  // throttled comes before B's higher CPU, and fast_max is 1
  CHECK_FALSE(find(*snapshot, kB)->signals.fast);
  CHECK(*find(*snapshot, kB)->signals.cpu_cores == Approx(0.5));

  // The fast tier reads A alone, and sees the next period end with 30 ms throttled.
  tier->tick(110 * kMs);
  tree.file(a_stat, cpu_stat(1'040'000, 102, 52, 4'110'000));
  tier->tick(120 * kMs);
  for (int64_t t = 130; t < 200; t += 10) tier->tick(t * kMs);
  CHECK(tier->stats().fast_reads_total.load() == 9);
  tier->tick(200 * kMs);
  snapshot = tier->snapshot();
  a = find(*snapshot, kA);
  CHECK(*a->signals.throttled_share == Approx(0.3));
  // The spike is kept over the window; the slow round's own view of the last 100 ms is 0.3.
  CHECK(*a->signals.throttled_share_max == Approx(0.8));
  CHECK(a->signals.fast);

  // A window of unthrottled periods later, the maximum is theirs, 0.
  int64_t periods = 102;
  for (int64_t t = 210; t <= 1300; t += 10) {
    if (t % 100 == 50) {
      ++periods;
      tree.file(a_stat, cpu_stat(1'040'000 + (periods - 102) * 1000, periods, 52, 4'110'000));
    }
    tier->tick(t * kMs);
  }
  snapshot = tier->snapshot();
  a = find(*snapshot, kA);
  CHECK(*a->signals.throttled_share_max == 0.0);
  CHECK(*a->signals.throttled_share == 0.0);
}

TEST_CASE("shouldReadANearlyFullContainersMemoryFastAndKeepItsPeak", "[recorder][containers]") {
  const FakeProcTree tree = FakeProcTree::copy_of("cgroup/v2-systemd-docker");
  tree.file(kADir + "/memory.current", "1000000000\n");  // of 1 GiB
  auto tier = open_tier(tree);
  tier->tick(0);
  const auto* a = find(*tier->snapshot(), kA);
  CHECK(*a->signals.memory_fill == Approx(1e9 / 1073741824.0));
  CHECK(a->signals.fast);
  // B has no limit.
  CHECK_FALSE(find(*tier->snapshot(), kB)->signals.memory_fill.has_value());
  // A peak between two slow rounds is seen by the fast tier and kept over the window.
  tree.file(kADir + "/memory.current", "1070000000\n");
  tier->tick(40 * kMs);
  tree.file(kADir + "/memory.current", "900000000\n");
  tier->tick(100 * kMs);
  a = find(*tier->snapshot(), kA);
  CHECK(a->stats.memory.usage_bytes == 900000000);
  CHECK(*a->signals.memory_usage_max == 1070000000.0);
}

TEST_CASE("shouldFollowContainersThatComeAndGo", "[recorder][containers]") {
  const FakeProcTree tree = FakeProcTree::copy_of("cgroup/v2-systemd-docker");
  auto tier = open_tier(tree);
  tier->tick(0);
  REQUIRE(tier->snapshot()->containers.size() == 2);
  tree.remove(kBDir);
  const std::string kC = std::string(64, 'c');
  tree.file("system.slice/docker-" + kC + ".scope/cpu.stat", cpu_stat(7, 0, 0, 0));
  tree.file("system.slice/docker-" + kC + ".scope/cgroup.procs", "");
  tier->tick(100 * kMs);
  const auto snapshot = tier->snapshot();
  REQUIRE(snapshot->containers.size() == 2);
  CHECK(find(*snapshot, kB) == nullptr);
  REQUIRE(find(*snapshot, kC) != nullptr);
  CHECK(find(*snapshot, kC)->stats.cpu.usage_us == 7);
  // The newcomer has only a cpu.stat: the rest of its fields are absent, not an error.
  CHECK(find(*snapshot, kC)->stats.memory.usage_bytes == sampler::kAbsent);
}

TEST_CASE("shouldCountContainersBeyondTheLimitAsUntracked", "[recorder][containers]") {
  const FakeProcTree tree = FakeProcTree::copy_of("cgroup/v2-systemd-docker");
  ContainerTierSettings settings = test_settings();
  settings.limits.max_containers = 1;
  auto tier = open_tier(tree, settings);
  tier->tick(0);
  CHECK(tier->snapshot()->containers.size() == 1);
  CHECK(tier->snapshot()->untracked == 1);
}

TEST_CASE("shouldNameContainersFromTheNodesFiles", "[recorder][containers]") {
  const FakeProcTree tree = FakeProcTree::copy_of("cgroup/v2-systemd-docker");
  const FakeProcTree node;
  node.file("var/lib/docker/containers/" + kA + "/config.v2.json",
            R"({"ID":")" + kA + R"(","Name":"/web","Config":{"Image":"nginx:1.25","Labels":{}}})");
  ContainerTierSettings settings = test_settings();
  container::names::NameSettings names;
  names.root = node.root();
  settings.names = names;
  auto tier = open_tier(tree, settings);
  tier->tick(0);
  const auto* a = find(*tier->snapshot(), kA);
  CHECK(a->info->names.name == "web");
  CHECK(a->info->names.image == "nginx:1.25");
  CHECK(find(*tier->snapshot(), kB)->info->names.name.empty());
  REQUIRE(tier->name_stats().has_value());
  CHECK(tier->name_stats()->containers == 1);
}

TEST_CASE("shouldRefuseARootWithoutACgroupHierarchy", "[recorder][containers]") {
  const FakeProcTree empty;
  sampler::ProcRoot root;
  root.cgroupfs = empty.root();
  const auto tier = ContainerRecorder::open(test_settings(), root);
  REQUIRE_FALSE(tier.ok());
  CHECK_THAT(tier.error(), Catch::Contains(empty.root().string()));
}

TEST_CASE("shouldRefuseAPathRegexThatDoesNotCompile", "[recorder][containers]") {
  const FakeProcTree tree = FakeProcTree::copy_of("cgroup/v2-systemd-docker");
  ContainerTierSettings settings = test_settings();
  settings.match.path_regex = "(qemu";
  sampler::ProcRoot root;
  root.cgroupfs = tree.root();
  const auto tier = ContainerRecorder::open(settings, root);
  REQUIRE_FALSE(tier.ok());
  CHECK_THAT(tier.error(), Catch::Contains("(qemu"));
}

TEST_CASE("shouldReadEachContainerInFullOnceADetailRateAndAtOnceAfterAMemoryEvent",
          "[recorder][containers]") {
  const FakeProcTree tree = FakeProcTree::copy_of("cgroup/v2-systemd-docker");
  ContainerTierSettings settings = test_settings();
  settings.fast_max = 0;
  settings.detail_rate = 300ms;  // one slow round in three
  auto tier = open_tier(tree, settings);
  tier->tick(0);
  CHECK(tier->stats().full_reads_total.load() == 2);  // the first read of each is in full
  for (int64_t t = 100; t <= 300; t += 100) tier->tick(t * kMs);
  // Three rounds later each was read in full once more, and in the others only its counters.
  CHECK(tier->stats().slow_reads_total.load() == 8);
  CHECK(tier->stats().full_reads_total.load() == 4);

  // A breach of A's limit: the next round reads A's memory.stat with it, whatever A's phase.
  tree.file(kADir + "/memory.events", "low 0\nhigh 0\nmax 318\noom 2\noom_kill 1\n")
      .file(kADir + "/memory.stat", "anon 999\n");
  const uint64_t before = tier->stats().full_reads_total.load();
  tier->tick(400 * kMs);
  const auto* a = find(*tier->snapshot(), kA);
  REQUIRE(a != nullptr);
  CHECK(a->stats.memory.events.max == 318);
  CHECK(a->stats.memory.stat.anon == 999);
  CHECK(tier->stats().full_reads_total.load() > before);
}

TEST_CASE("shouldReadTheMemoryUsageFastOnlyOfAContainerNearItsLimit", "[recorder][containers]") {
  const FakeProcTree tree = FakeProcTree::copy_of("cgroup/v2-systemd-docker");
  const std::string a_stat = kADir + "/cpu.stat";
  const std::string a_usage = kADir + "/memory.current";
  tree.file(a_stat, cpu_stat(1'000'000, 100, 50, 4'000'000));
  auto tier = open_tier(tree);  // fast_max 1; A's limit is 1 GiB
  tier->tick(0);
  tree.file(a_stat, cpu_stat(1'020'000, 101, 51, 4'080'000));
  tier->tick(100 * kMs);  // A was throttled: in the fast tier, at 70 % of its limit
  REQUIRE(find(*tier->snapshot(), kA)->signals.fast);
  // A 900 MiB peak between two slow rounds: not read, A is in the fast tier for its CPU.
  tree.file(a_usage, "943718400\n");
  tier->tick(110 * kMs);
  tree.file(a_usage, "734003200\n");
  tree.file(a_stat, cpu_stat(1'040'000, 102, 52, 4'160'000));  // throttled again: stays fast
  tier->tick(200 * kMs);
  const auto* a = find(*tier->snapshot(), kA);
  REQUIRE(a->signals.fast);
  CHECK(*a->signals.memory_usage_max == Approx(734003200.0));

  // Near its limit (over 90 %), the fast rounds read its usage, and a peak between two slow
  // rounds is kept.
  tree.file(a_usage, "1000000000\n");
  tree.file(a_stat, cpu_stat(1'060'000, 103, 53, 4'240'000));
  tier->tick(300 * kMs);
  REQUIRE(find(*tier->snapshot(), kA)->signals.fast);
  tree.file(a_usage, "1070000000\n");
  tier->tick(310 * kMs);
  tree.file(a_usage, "1000000000\n");
  tree.file(a_stat, cpu_stat(1'080'000, 104, 54, 4'320'000));
  tier->tick(400 * kMs);
  CHECK(*find(*tier->snapshot(), kA)->signals.memory_usage_max == Approx(1070000000.0));
}

TEST_CASE("shouldTurnTheConfigurationIntoTheTiersSettings", "[recorder][containers]") {
  config::Config config;
  config.containers.rate = 250ms;
  config.containers.fast_max = 0;
  config.containers.detail_rate = 5s;
  config.containers.max = 7;
  config.containers.match.path_regex = "^/vm";
  config.containers.names.docker_root = "/srv/docker";
  config.containers.names.containerd_state = "/run/k3s/containerd";
  config.export_.window = 30s;
  const ContainerTierSettings settings = container_tier_settings(config);
  CHECK(settings.rate == 250ms);
  CHECK(settings.fast_max == 0);
  CHECK(settings.detail_rate == 5s);
  CHECK(settings.limits.max_containers == 7);
  CHECK(settings.match.path_regex == "^/vm");
  CHECK(settings.window == 30s);
  REQUIRE(settings.names.has_value());
  CHECK(settings.names->docker_containers == "/srv/docker/containers");
  CHECK(settings.names->containerd_tasks ==
        "/run/k3s/containerd/io.containerd.runtime.v2.task/k8s.io");
  CHECK(settings.names->pod_logs == "/var/log/pods");
  CHECK(settings.names->grace_period == 10min);
  config.containers.names.enabled = false;
  CHECK_FALSE(container_tier_settings(config).names.has_value());
}

TEST_CASE("shouldRunItsRoundsUntilStoppedAndWakeForNothingElse", "[recorder][containers]") {
  const FakeProcTree tree = FakeProcTree::copy_of("cgroup/v2-systemd-docker");
  ContainerTierSettings settings = test_settings();
  settings.rate = 20ms;
  auto tier = open_tier(tree, settings);
  StopSignal stop;
  std::thread thread([&] { tier->run(stop); });
  std::this_thread::sleep_for(200ms);
  stop.request();
  thread.join();
  CHECK(tier->stats().slow_rounds_total.load() >= 3);
  CHECK(tier->snapshot()->containers.size() == 2);
  // Nothing moves in the fixture, so no container is busy, throttled or nearly full: no fast
  // tier, and no wake-up at its rate.
  CHECK(tier->stats().fast_rounds_total.load() == 0);
}

TEST_CASE("shouldWakeAtTheFastRateOnceAContainerIsThrottled", "[recorder][containers]") {
  // The fast tier is empty at the first rounds and fills when A is throttled: the thread must
  // then wake every fast_rate (10 ms), not only at the slow rounds (100 ms).
  const FakeProcTree tree = FakeProcTree::copy_of("cgroup/v2-systemd-docker");
  const std::string a_stat = kADir + "/cpu.stat";
  tree.file(a_stat, cpu_stat(1'000'000, 100, 50, 4'000'000));
  auto tier = open_tier(tree);
  StopSignal stop;
  std::thread thread([&] { tier->run(stop); });
  // A new throttled period every 20 ms, so every slow round sees A throttled.
  for (int64_t period = 1; period <= 30; ++period) {
    std::this_thread::sleep_for(20ms);
    tree.file(a_stat, cpu_stat(1'000'000 + period * 20'000, 100 + period, 50 + period,
                               4'000'000 + period * 80'000));
  }
  stop.request();
  thread.join();
  // ~0.5 s with A in the fast tier is ~50 fast rounds; at the slow rounds' pace it would be none.
  CHECK(tier->stats().fast_rounds_total.load() >= 10);
}
