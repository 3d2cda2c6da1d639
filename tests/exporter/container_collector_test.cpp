// The container families of /metrics over a container tier reading a copy of a cgroup fixture:
// cAdvisor's names and labels, limits left out when unlimited, the throttled first in the
// bounded export, and names from the node that cannot break the exposition.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "fake_proc_tree.h"
#include "family_names.h"
#include "flightrec/exporter/metrics/collectors.h"
#include "flightrec/exporter/metrics/container_ranking.h"
#include "flightrec/exposition/collectable.h"
#include "flightrec/exposition/serialize.h"

using namespace flightrec;
using namespace flightrec::exporter::metrics;
using flightrec::testing::FakeProcTree;
using namespace std::chrono_literals;

namespace {

constexpr int64_t kMs = 1'000'000;
const std::string kA = "3f9c1e0b7d2a4c5e8f6a1b2c3d4e5f60718293a4b5c6d7e8f9a0b1c2d3e4f5a6";
const std::string kB = "b7e2d4c6a8f0e1d3c5b7a9f1e3d5c7b9a1f3e5d7c9b1a3f5e7d9c1b3a5f7e9d1";
const std::string kAPath = "/system.slice/docker-" + kA + ".scope";
const std::string kBPath = "/system.slice/docker-" + kB + ".scope";

std::string cpu_stat(int64_t usage_us, int64_t periods, int64_t throttled, int64_t throttled_us) {
  return "usage_usec " + std::to_string(usage_us) + "\nuser_usec 0\nsystem_usec 0\nnr_periods " +
         std::to_string(periods) + "\nnr_throttled " + std::to_string(throttled) +
         "\nthrottled_usec " + std::to_string(throttled_us) + "\n";
}

// A cgroup that a path regex takes, whose directory name holds a newline, a quote, a control
// character and a byte that is not UTF-8: its id and name labels.
const std::string kHostileDir = std::string("machine.slice/vm\n\"\x01\xff");

// Two containers read twice, 100 ms apart: A throttled 80 ms in its one period and named by its
// config.v2.json (a name with a newline and a quote), B busier and unnamed; with `hostile`, the
// cgroup above too.
struct Tier {
  FakeProcTree cgroups = FakeProcTree::copy_of("cgroup/v2-systemd-docker");
  FakeProcTree node;
  std::unique_ptr<recorder::ContainerRecorder> tier;

  explicit Tier(bool hostile = false) {
    node.file("var/lib/docker/containers/" + kA + "/config.v2.json",
              R"({"ID":")" + kA + R"(","Name":"/we\nb\"","Config":{"Image":"nginx:1.25"}})");
    const std::string a_stat = kAPath.substr(1) + "/cpu.stat";
    const std::string b_stat = kBPath.substr(1) + "/cpu.stat";
    cgroups.file(a_stat, cpu_stat(1'000'000, 100, 50, 4'000'000));
    cgroups.file(b_stat, cpu_stat(5'000'000, 0, 0, 0));
    recorder::ContainerTierSettings settings;
    if (hostile) {
      cgroups.file(kHostileDir + "/cpu.stat", cpu_stat(3, 0, 0, 0));
      cgroups.file(kHostileDir + "/cgroup.procs", "");
      settings.match.path_regex = "^/machine\\.slice/vm";
    }
    container::names::NameSettings names;
    names.root = node.root();
    settings.names = names;
    sampler::ProcRoot root;
    root.cgroupfs = cgroups.root();
    auto opened = recorder::ContainerRecorder::open(settings, root);
    REQUIRE(opened.ok());
    tier = std::move(*opened);
    tier->tick(0);
    cgroups.file(a_stat, cpu_stat(1'020'000, 101, 51, 4'080'000));
    cgroups.file(b_stat, cpu_stat(5'050'000, 0, 0, 0));
    tier->tick(100 * kMs);
  }
};

std::string scrape(const ContainerCollector& collector, exposition::Format format) {
  std::vector<prometheus::MetricFamily> families;
  exposition::ExtrasByFamily extras;
  exposition::Families out(families, extras, 0, 9'000'000);
  collector.collect(out);
  const auto serialized = exposition::serialize(format, families, extras);
  CHECK(serialized.warnings.empty());
  return serialized.body;
}

std::vector<std::string> lines_starting(const std::string& body, const std::string& prefix) {
  std::vector<std::string> found;
  size_t at = 0;
  while (at < body.size()) {
    const size_t end = body.find('\n', at);
    const std::string line = body.substr(at, end - at);
    if (line.starts_with(prefix)) found.push_back(line);
    if (end == std::string::npos) break;
    at = end + 1;
  }
  return found;
}

}  // namespace

TEST_CASE("shouldGiveOnlyContainerFamiliesInCadvisorsShape", "[exporter][containers]") {
  const Tier w;
  const ContainerCollector collector(*w.tier, 20);
  const auto names = testing::family_names(collector);
  CHECK(testing::all_start_with(names, {"flightrec_container_", "flightrec_containers"}));
  const std::string body = scrape(collector, exposition::Format::text_0_0_4);
  const std::string b_labels =
      R"({id=")" + kBPath + R"(",name="",namespace="",pod="",container="",image=""})";
  CHECK_THAT(body,
             Catch::Contains("flightrec_container_cpu_usage_seconds_total" + b_labels + " 5.05"));
  CHECK_THAT(body,
             Catch::Contains("flightrec_container_cpu_cfs_throttled_periods_total{id=\"" + kAPath));
  CHECK_THAT(body, Catch::Contains("flightrec_container_spec_cpu_period_seconds{id=\"" + kAPath));
  CHECK_THAT(body, Catch::Contains("flightrec_containers{state=\"tracked\"} 2"));
  CHECK_THAT(body, Catch::Contains("flightrec_containers{state=\"exported\"} 2"));
  CHECK_THAT(body, Catch::Contains("flightrec_container_tier_cgroup_info{mode=\"unified\"} 1"));
}

TEST_CASE("shouldLeaveOutLimitsThatAreNotSet", "[exporter][containers]") {
  const Tier w;
  const std::string body = scrape(ContainerCollector(*w.tier, 20), exposition::Format::text_0_0_4);
  // A has a 1 GiB limit and a quota; B (the fixture's 5.10-era container) has neither.
  const auto limits = lines_starting(body, "flightrec_container_memory_limit_bytes{");
  REQUIRE(limits.size() == 1);
  CHECK_THAT(limits[0], Catch::Contains(kAPath) && Catch::EndsWith(" 1073741824"));
  const auto quotas = lines_starting(body, "flightrec_container_spec_cpu_quota_seconds{");
  REQUIRE(quotas.size() == 1);
  CHECK_THAT(quotas[0], Catch::Contains(kAPath) && Catch::EndsWith(" 0.2"));
}

TEST_CASE("shouldExportTheThrottledFirstAndCountTheRest", "[exporter][containers]") {
  const Tier w;
  ContainerCollector collector(*w.tier, 1);
  std::string body = scrape(collector, exposition::Format::text_0_0_4);
  // B used more CPU, but A was throttled: A is the one exported.
  const auto usage = lines_starting(body, "flightrec_container_cpu_usage_seconds_total{");
  REQUIRE(usage.size() == 1);
  CHECK_THAT(usage[0], Catch::Contains(kAPath));
  const auto ratio = lines_starting(body, "flightrec_container_cpu_throttled_ratio_max{");
  REQUIRE(ratio.size() == 1);
  CHECK_THAT(ratio[0], Catch::EndsWith(" 0.8"));
  CHECK_THAT(body, Catch::Contains("flightrec_containers{state=\"exported\"} 1"));
  collector.set_top_n(0);
  body = scrape(collector, exposition::Format::text_0_0_4);
  CHECK(lines_starting(body, "flightrec_container_cpu_usage_seconds_total{").empty());
  CHECK_THAT(body, Catch::Contains("flightrec_containers{state=\"exported\"} 0"));
}

TEST_CASE("shouldRankByThrottlingThenCpuThenPath", "[exporter][containers]") {
  recorder::containers::ContainerTierSnapshot snapshot;
  for (const auto& [throttled, cpu] :
       {std::pair{0.0, 0.5}, {0.3, 0.1}, {0.0, 2.0}, {0.9, 0.0}, {0.0, 0.5}}) {
    recorder::containers::ContainerView view;
    if (throttled > 0) view.signals.throttled_share_max = throttled;
    view.signals.cpu_cores = cpu;
    snapshot.containers.push_back(view);
  }
  CHECK(containers_to_export(snapshot, 10) == std::vector<size_t>{3, 1, 2, 0, 4});
  CHECK(containers_to_export(snapshot, 2) == std::vector<size_t>{3, 1});
}

TEST_CASE("shouldKeepHostileNamesInsideTheirLabelInBothFormats", "[exporter][containers]") {
  const Tier w(true);
  const ContainerCollector collector(*w.tier, 20);
  for (const auto format :
       {exposition::Format::text_0_0_4, exposition::Format::openmetrics_1_0_0}) {
    const std::string body = scrape(collector, format);
    // Newlines and quotes are escaped, the byte that is not UTF-8 becomes U+FFFD, the control
    // character is kept: one line per sample whatever the names. In path order, the VM first.
    const auto usage = lines_starting(body, "flightrec_container_cpu_usage_seconds_total{");
    REQUIRE(usage.size() == 3);
    CHECK_THAT(usage[1],
               Catch::Contains(R"(name="we\nb\"")") && Catch::Contains(R"(image="nginx:1.25")"));
    const std::string vm = R"(vm\n\")"
                           "\x01"
                           "\xef\xbf\xbd";
    CHECK_THAT(usage[0],
               Catch::Contains(R"({id="/machine.slice/)" + vm + R"(",name=")" + vm + R"(",)"));
  }
}
