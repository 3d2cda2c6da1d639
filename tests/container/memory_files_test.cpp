#include "flightrec/container/cgroups/memory_files.h"

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
    "cgroup/v1-hybrid-cgroupfs/memory/docker/"
    "3f9c1e0b7d2a4c5e8f6a1b2c3d4e5f60718293a4b5c6d7e8f9a0b1c2d3e4f5a6/";
}  // namespace

TEST_CASE("parse_memory_events reads the five events, skipping newer lines",
          "[container][memory]") {
  const auto events = parse_memory_events(read_file(fixture_path(kV2Docker + "memory.events")));
  REQUIRE(events.ok());
  CHECK(*events == MemoryEvents{.low = 0, .high = 0, .max = 317, .oom = 2, .oom_kill = 1});
}

TEST_CASE("parse_memory_events names a malformed line", "[container][memory]") {
  const auto events = parse_memory_events("low 0\nhigh 1.5\n");
  REQUIRE_FALSE(events.ok());
  CHECK(events.error() == "line 2 (\"high 1.5\"): the value is not a whole count");
}

TEST_CASE("parse_oom_control reads v1's OOM state, oom_kill where the kernel has it",
          "[container][memory]") {
  const auto control = parse_oom_control(read_file(fixture_path(kV1Docker + "memory.oom_control")));
  REQUIRE(control.ok());
  CHECK(*control == OomControl{0, 0, 0});
  const auto old_kernel = parse_oom_control("oom_kill_disable 1\nunder_oom 1\n");
  REQUIRE(old_kernel.ok());
  CHECK(*old_kernel == OomControl{1, 1, kAbsent});
}

TEST_CASE("parse_memory_stat_v2 reads the fields that explain a breach", "[container][memory]") {
  const auto stat = parse_memory_stat_v2(read_file(fixture_path(kV2Docker + "memory.stat")));
  REQUIRE(stat.ok());
  CHECK(*stat == MemoryStat{.anon = 612368384,
                            .file = 98304000,
                            .kernel = 20971520,
                            .slab = 14155776,
                            .shmem = 4194304,
                            .swap = kAbsent,
                            .workingset_refault_anon = 0,
                            .workingset_refault_file = 2048,
                            .major_faults = 311});
}

TEST_CASE("parse_memory_stat_v1 reads the hierarchical total_ lines, not the local ones",
          "[container][memory]") {
  // Captured on this project's CI machine kind with ~87 MiB of anonymous memory and 24 MiB read.
  const auto stat = parse_memory_stat_v1(read_file(fixture_path(kV1Docker + "memory.stat")));
  REQUIRE(stat.ok());
  CHECK(stat->anon == 90923008);
  CHECK(stat->file == 25288704);
  CHECK(stat->kernel == kAbsent);
  CHECK(stat->slab == kAbsent);
  CHECK(stat->shmem == 0);
  CHECK(stat->swap == 0);
  CHECK(stat->workingset_refault_file == 30);
  CHECK(stat->major_faults == 2);

  const auto local_only = parse_memory_stat_v1("rss 5\ncache 6\n");
  REQUIRE_FALSE(local_only.ok());
  CHECK(local_only.error().starts_with("no field of v1 memory.stat (total_rss, "));
  CHECK(parse_memory_stat_v1("rss 5\ntotal_rss 7\n")->anon == 7);
}

TEST_CASE("the two memory.stat parsers do not read each other's names", "[container][memory]") {
  CHECK_FALSE(parse_memory_stat_v1("anon 1\nfile 2\n").ok());
  CHECK_FALSE(parse_memory_stat_v2("total_rss 1\ntotal_cache 2\n").ok());
}
