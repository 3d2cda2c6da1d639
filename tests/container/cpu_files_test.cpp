#include "flightrec/container/cgroups/cpu_files.h"

#include <catch2/catch.hpp>
#include <string>

#include "temp_dir.h"

using namespace flightrec::container;
using flightrec::testing::fixture_path;
using flightrec::testing::read_file;

namespace {
const std::string kV2Docker =
    "cgroup/v2-systemd-docker/system.slice/"
    "docker-3f9c1e0b7d2a4c5e8f6a1b2c3d4e5f60718293a4b5c6d7e8f9a0b1c2d3e4f5a6.scope/";
const std::string kV1Docker =
    "cgroup/v1-hybrid-cgroupfs/cpu/docker/"
    "3f9c1e0b7d2a4c5e8f6a1b2c3d4e5f60718293a4b5c6d7e8f9a0b1c2d3e4f5a6/";
}  // namespace

TEST_CASE("parse_cpu_stat reads v2's usage, bandwidth and burst fields", "[container][cpu]") {
  const auto stat = parse_cpu_stat(read_file(fixture_path(kV2Docker + "cpu.stat")));
  REQUIRE(stat.ok());
  CHECK(*stat == CpuStat{.usage_us = 48213577,
                         .user_us = 39120944,
                         .system_us = 9092633,
                         .periods = 41210,
                         .throttled_periods = 3120,
                         .throttled_us = 158893211,
                         .bursts = 12,
                         .burst_us = 84000});
}

TEST_CASE("parse_cpu_stat reads v1's throttling in ns as µs, without usage", "[container][cpu]") {
  // Captured on this project's CI machine kind (kernel 6.18) under a 50 ms / 100 ms quota.
  const auto stat = parse_cpu_stat(read_file(fixture_path(kV1Docker + "cpu.stat")));
  REQUIRE(stat.ok());
  CHECK(stat->usage_us == kAbsent);
  CHECK(stat->user_us == kAbsent);
  CHECK(stat->periods == 13);
  CHECK(stat->throttled_periods == 10);
  CHECK(stat->throttled_us == 223186);  // 223186752 ns, rounded down
  CHECK(stat->bursts == 0);
  CHECK(stat->burst_us == 0);
}

TEST_CASE("parse_cpu_stat leaves the fields an older kernel lacks absent", "[container][cpu]") {
  const auto stat = parse_cpu_stat("usage_usec 10\nuser_usec 6\nsystem_usec 4\n");
  REQUIRE(stat.ok());
  CHECK(stat->usage_us == 10);
  CHECK(stat->periods == kAbsent);
  CHECK(stat->bursts == kAbsent);
}

TEST_CASE("parse_cpu_stat skips lines it does not know, whatever their values",
          "[container][cpu]") {
  const auto stat = parse_cpu_stat("core_sched.force_idle_usec 0\nwait_sum -3.5\nnr_periods 7\n");
  REQUIRE(stat.ok());
  CHECK(stat->periods == 7);
}

TEST_CASE("parse_cpu_stat names the line whose value is malformed", "[container][cpu]") {
  const auto stat = parse_cpu_stat("usage_usec 10\nnr_periods 7x\n");
  REQUIRE_FALSE(stat.ok());
  CHECK(stat.error() == "line 2 (\"nr_periods 7x\"): the value is not a whole count");
  CHECK_FALSE(parse_cpu_stat("nr_throttled\n").ok());
  CHECK_FALSE(parse_cpu_stat("nr_throttled 1 2\n").ok());
  CHECK_FALSE(parse_cpu_stat("nr_throttled -1\n").ok());
}

TEST_CASE("parse_cpu_stat refuses bytes with no cpu.stat field", "[container][cpu]") {
  for (const char* text : {"", "\n", "some avg10=0.00 total=5\n"}) {
    const auto stat = parse_cpu_stat(text);
    REQUIRE_FALSE(stat.ok());
    CHECK(stat.error().starts_with("no field of cpu.stat (usage_usec, "));
  }
}

TEST_CASE("parse_cpu_max reads a quota and period, and max as no quota", "[container][cpu]") {
  CHECK(*parse_cpu_max("200000 100000\n") == CpuBandwidth{200000, 100000});
  CHECK(*parse_cpu_max("max 100000\n") == CpuBandwidth{kUnlimited, 100000});
  for (const char* bad : {"", "max\n", "200000\n", "1 2 3\n", "-1 100000\n", "max max\n"}) {
    const auto bandwidth = parse_cpu_max(bad);
    REQUIRE_FALSE(bandwidth.ok());
    CHECK(bandwidth.error().ends_with("is not \"<quota|max> <period>\""));
  }
}

TEST_CASE("parse_cfs_quota reads -1 as no quota", "[container][cpu]") {
  CHECK(*parse_cfs_quota("-1\n") == kUnlimited);
  CHECK(*parse_cfs_quota(read_file(fixture_path(kV1Docker + "cpu.cfs_quota_us"))) == 50000);
  const auto bad = parse_cfs_quota("-2\n");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error() == "\"-2\" is not a whole count (a quota is a count of µs or -1)");
}

TEST_CASE("parse_cpuacct_stat reads user and system ticks", "[container][cpu]") {
  const std::string text = read_file(fixture_path(
      "cgroup/v1-hybrid-cgroupfs/cpuacct/docker/"
      "3f9c1e0b7d2a4c5e8f6a1b2c3d4e5f60718293a4b5c6d7e8f9a0b1c2d3e4f5a6/cpuacct.stat"));
  CHECK(*parse_cpuacct_stat(text) == CpuacctTicks{42, 20});
  CHECK_FALSE(parse_cpuacct_stat("nice 3\n").ok());
}
