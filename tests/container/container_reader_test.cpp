#include "flightrec/container/cgroups/container_reader.h"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <string>

#include "fake_proc_tree.h"
#include "flightrec/container/cgroups/container_discovery.h"
#include "temp_dir.h"

using namespace flightrec::container;
using flightrec::sampler::ProcRoot;
using flightrec::testing::FakeProcTree;
using flightrec::testing::fixture_path;

namespace {
const std::string kA = "3f9c1e0b7d2a4c5e8f6a1b2c3d4e5f60718293a4b5c6d7e8f9a0b1c2d3e4f5a6";
const std::string kB = "b7e2d4c6a8f0e1d3c5b7a9f1e3d5c7b9a1f3e5d7c9b1a3f5e7d9c1b3a5f7e9d1";

struct Found {
  CgroupMode mode;
  ContainerRef ref;
};

// The container at `path` in a cgroupfs root, as discovery finds it.
Found find(const std::filesystem::path& cgroupfs, const std::string& path) {
  ProcRoot root;
  root.cgroupfs = cgroupfs;
  auto layout = detect_cgroup_layout(root);
  REQUIRE(layout.ok());
  const CgroupMode mode = layout->mode;
  auto matcher = ContainerMatcher::create({});
  REQUIRE(matcher.ok());
  ContainerDiscovery discovery(std::move(*layout), std::move(*matcher));
  REQUIRE(discovery.refresh().ok());
  for (const ContainerRef& ref : discovery.tracked()) {
    if (ref.path == path) return {mode, ref};
  }
  FAIL("no container at " << path);
  return {};
}

CgroupStats read_once(const Found& found) {
  auto reader = ContainerReader::open(found.ref, found.mode);
  REQUIRE(reader.ok());
  CgroupStats stats;
  const flightrec::Status status = reader->read(stats);
  INFO(status.error());
  REQUIRE(status.ok());
  return stats;
}

int64_t us_per_tick() { return 1'000'000 / ::sysconf(_SC_CLK_TCK); }
}  // namespace

TEST_CASE("ContainerReader reads every v2 file of a container", "[container][reader]") {
  const Found found =
      find(fixture_path("cgroup/v2-systemd-docker"), "/system.slice/docker-" + kA + ".scope");
  const CgroupStats stats = read_once(found);
  CHECK(stats.cpu == CpuStat{48213577, 39120944, 9092633, 41210, 3120, 158893211, 12, 84000});
  CHECK(stats.bandwidth == CpuBandwidth{200000, 100000});
  CHECK(stats.memory.usage_bytes == 734003200);
  CHECK(stats.memory.limit_bytes == 1073741824);
  CHECK(stats.memory.high_bytes == kUnlimited);
  CHECK(stats.memory.swap_bytes == 0);
  CHECK(stats.memory.events == MemoryEvents{0, 0, 317, 2, 1});
  CHECK(stats.memory.stat.anon == 612368384);
  CHECK(stats.memory.stat.major_faults == 311);
  REQUIRE(stats.io.count == 2);
  CHECK(stats.io.devices[0].write_bytes == 314773504);
  CHECK(stats.pids == PidsStats{23, kUnlimited});
  CHECK(stats.cpu_pressure == Pressure{9123456, 7012345});
  CHECK(stats.memory_pressure == Pressure{412345, 398765});
  CHECK(stats.io_pressure == Pressure{51234, 50001});
}

TEST_CASE("ContainerReader leaves absent what an older kernel's cgroup lacks",
          "[container][reader]") {
  const Found found =
      find(fixture_path("cgroup/v2-systemd-docker"), "/system.slice/docker-" + kB + ".scope");
  auto reader = ContainerReader::open(found.ref, found.mode);
  REQUIRE(reader.ok());
  CHECK(reader->has(CgroupFile::cpu_stat));
  CHECK_FALSE(reader->has(CgroupFile::memory_events));
  CHECK_FALSE(reader->has(CgroupFile::cfs_quota));  // a v1 name, never opened on v2
  CgroupStats stats;
  REQUIRE(reader->read(stats).ok());
  CHECK(stats.cpu.usage_us == 1203);
  CHECK(stats.cpu.bursts == kAbsent);
  CHECK(stats.bandwidth == CpuBandwidth{kUnlimited, 100000});
  CHECK(stats.memory.limit_bytes == kUnlimited);
  CHECK(stats.memory.events == MemoryEvents{});
  CHECK(stats.io.count == 0);
  CHECK(stats.pids == PidsStats{});
  CHECK(stats.cpu_pressure == Pressure{});
}

TEST_CASE("ContainerReader reads v1's files into the same fields, in the same units",
          "[container][reader]") {
  // Captured on this project's CI machine kind: a 50 ms / 100 ms quota, 256 MiB limit.
  const Found found = find(fixture_path("cgroup/v1-hybrid-cgroupfs"), "/docker/" + kA);
  const CgroupStats stats = read_once(found);
  CHECK(stats.cpu == CpuStat{642544, 42 * us_per_tick(), 20 * us_per_tick(), 13, 10, 223186, 0, 0});
  CHECK(stats.bandwidth == CpuBandwidth{50000, 100000});
  CHECK(stats.memory.usage_bytes == 117342208);
  CHECK(stats.memory.limit_bytes == 268435456);
  CHECK(stats.memory.high_bytes == kAbsent);
  CHECK(stats.memory.swap_bytes == 0);  // memory.stat's total_swap
  CHECK(stats.memory.events == MemoryEvents{kAbsent, kAbsent, 0, kAbsent, 0});
  CHECK(stats.memory.stat.anon == 90923008);
  REQUIRE(stats.io.count == 1);
  CHECK(stats.io.devices[0] == IoDevice{254, 0, 25288704, 692224, 51, 170, 0, 0});
  CHECK(stats.pids == PidsStats{2, 512});
  CHECK(stats.cpu_pressure == Pressure{});  // no unified cgroup under the cgroupfs driver
}

TEST_CASE("ContainerReader reads a hybrid host's PSI from the unified hierarchy",
          "[container][reader]") {
  const Found found =
      find(fixture_path("cgroup/v1-hybrid-systemd"), "/system.slice/docker-" + kA + ".scope");
  const CgroupStats stats = read_once(found);
  CHECK(stats.bandwidth == CpuBandwidth{kUnlimited, 100000});
  CHECK(stats.cpu.usage_us == 5123456);
  CHECK(stats.cpu.user_us == 400 * us_per_tick());
  CHECK(stats.cpu.bursts == kAbsent);
  CHECK(stats.memory.limit_bytes == kUnlimited);
  CHECK(stats.memory.events.oom_kill == kAbsent);  // memory.oom_control before Linux 4.13
  CHECK(stats.io.count == 0);
  CHECK(stats.pids == PidsStats{7, kUnlimited});
  CHECK(stats.cpu_pressure == Pressure{1203, kAbsent});
  CHECK(stats.io_pressure == Pressure{5489, 5397});
}

TEST_CASE("ContainerReader sees a file change without reopening it", "[container][reader]") {
  const FakeProcTree tree = FakeProcTree::copy_of("cgroup/v1-hybrid-cgroupfs");
  const Found found = find(tree.root(), "/docker/" + kA);
  auto reader = ContainerReader::open(found.ref, found.mode);
  REQUIRE(reader.ok());
  tree.file("memory/docker/" + kA + "/memory.failcnt", "42\n")
      .file("memory/docker/" + kA + "/memory.oom_control",
            "oom_kill_disable 0\nunder_oom 1\noom_kill 3\n");
  CgroupStats stats;
  REQUIRE(reader->read(stats).ok());
  CHECK(stats.memory.events.max == 42);
  CHECK(stats.memory.events.oom_kill == 3);
}

TEST_CASE("ContainerReader::read_fast reads only the CPU counters and the memory usage",
          "[container][reader]") {
  const FakeProcTree tree = FakeProcTree::copy_of("cgroup/v1-hybrid-cgroupfs");
  const Found found = find(tree.root(), "/docker/" + kA);
  auto reader = ContainerReader::open(found.ref, found.mode);
  REQUIRE(reader.ok());
  CgroupStats stats;
  REQUIRE(reader->read(stats).ok());
  tree.file("cpu/docker/" + kA + "/cpu.stat",
            "nr_periods 14\nnr_throttled 11\nthrottled_time 303186752\n")
      .file("cpuacct/docker/" + kA + "/cpuacct.usage", "662544060\n")
      .file("cpuacct/docker/" + kA + "/cpuacct.stat", "user 99\nsystem 99\n")
      .file("memory/docker/" + kA + "/memory.usage_in_bytes", "1\n")
      .file("pids/docker/" + kA + "/pids.current", "9\n");
  REQUIRE(reader->read_fast(stats).ok());
  // cpu.stat, cpuacct.usage and the usage read again (the lines this cpu.stat lacks keep their
  // values); cpuacct.stat, as every other file, not.
  CHECK(stats.cpu == CpuStat{662544, 42 * us_per_tick(), 20 * us_per_tick(), 14, 11, 303186, 0, 0});
  CHECK(stats.memory.usage_bytes == 1);
  CHECK(stats.memory.limit_bytes == 268435456);
  CHECK(stats.pids.current == 2);
  // A failing file is named and leaves what it would have given as it was.
  tree.file("cpu/docker/" + kA + "/cpu.stat", "nr_periods x\n");
  const flightrec::Status status = reader->read_fast(stats);
  REQUIRE_FALSE(status.ok());
  CHECK_THAT(status.error(),
             Catch::StartsWith((tree.root() / "cpu/docker" / kA / "cpu.stat").string()));
  CHECK(stats.cpu.periods == 14);
}

TEST_CASE("ContainerReader names the file that failed and reads the others",
          "[container][reader]") {
  const FakeProcTree tree = FakeProcTree::copy_of("cgroup/v2-systemd-docker");
  const std::string dir = "system.slice/docker-" + kA + ".scope";
  const Found found = find(tree.root(), "/" + dir);
  auto reader = ContainerReader::open(found.ref, found.mode);
  REQUIRE(reader.ok());
  tree.file(dir + "/memory.max", "lots\n").file(dir + "/io.stat", "sda 1\n");
  CgroupStats stats;
  const flightrec::Status status = reader->read(stats);
  REQUIRE_FALSE(status.ok());
  CHECK(status.error() == (tree.root() / dir / "memory.max").string() +
                              ": \"lots\" is not a limit (a whole count or \"max\")");
  CHECK(stats.memory.limit_bytes == kAbsent);
  CHECK(stats.io.count == 0);
  CHECK(stats.memory.usage_bytes == 734003200);
  CHECK(stats.pids.current == 23);
}

TEST_CASE("ContainerReader::open says when a cgroup has no file to read", "[container][reader]") {
  const FakeProcTree tree = FakeProcTree::copy_of("cgroup/v2-cgroupfs-docker");
  const Found found = find(tree.root(), "/docker/" + kA);  // holds only cgroup.procs
  const auto reader = ContainerReader::open(found.ref, found.mode);
  REQUIRE_FALSE(reader.ok());
  CHECK(reader.error() == "no cgroup file of /docker/" + kA + " could be opened");
}

TEST_CASE("ContainerReader::read_counters and read_details split the files between them",
          "[container][reader]") {
  const FakeProcTree tree = FakeProcTree::copy_of("cgroup/v1-hybrid-cgroupfs");
  const Found found = find(tree.root(), "/docker/" + kA);
  auto reader = ContainerReader::open(found.ref, found.mode);
  REQUIRE(reader.ok());
  CgroupStats stats;
  REQUIRE(reader->read(stats).ok());
  const std::string memory = "memory/docker/" + kA + "/";
  tree.file("cpuacct/docker/" + kA + "/cpuacct.usage", "662544060\n")
      .file("cpuacct/docker/" + kA + "/cpuacct.stat", "user 99\nsystem 99\n")
      .file(memory + "memory.usage_in_bytes", "1\n")
      .file(memory + "memory.failcnt", "7\n")
      .file(memory + "memory.oom_control", "oom_kill_disable 0\nunder_oom 0\noom_kill 3\n")
      .file(memory + "memory.limit_in_bytes", "2\n")
      .file(memory + "memory.stat", "total_rss 5\n")
      .file("pids/docker/" + kA + "/pids.current", "9\n");
  REQUIRE(reader->read_counters(stats).ok());
  // The counters and the limit-breach events; nothing of the other files.
  CHECK(stats.cpu.usage_us == 662544);
  CHECK(stats.memory.usage_bytes == 1);
  CHECK(stats.memory.events.max == 7);
  CHECK(stats.memory.events.oom_kill == 3);
  CHECK(stats.cpu.user_us == 42 * us_per_tick());
  CHECK(stats.memory.limit_bytes == 268435456);
  CHECK(stats.memory.stat.anon != 5);
  CHECK(stats.pids.current == 2);
  REQUIRE(reader->read_details(stats).ok());
  CHECK(stats.cpu.user_us == 99 * us_per_tick());
  CHECK(stats.memory.limit_bytes == 2);
  CHECK(stats.memory.stat.anon == 5);
  CHECK(stats.pids.current == 9);
  // read_details leaves the counters alone.
  tree.file(memory + "memory.usage_in_bytes", "4\n");
  REQUIRE(reader->read_details(stats).ok());
  CHECK(stats.memory.usage_bytes == 1);
}

TEST_CASE("Every cgroup file is a counter or a detail, and the counters are few",
          "[container][reader]") {
  size_t counters = 0;
  for (size_t i = 0; i < kCgroupFileCount; ++i) {
    if (is_counter_file(static_cast<CgroupFile>(i))) ++counters;
  }
  // cpu.stat, cpuacct.usage, the usage, memory.events, failcnt and oom_control.
  CHECK(counters == 6);
  CHECK(is_counter_file(CgroupFile::memory_events));
  CHECK_FALSE(is_counter_file(CgroupFile::memory_stat));
  CHECK_FALSE(is_counter_file(CgroupFile::cpu_pressure));
}

TEST_CASE("ContainerReader::read_fast leaves the memory usage when not asked for it",
          "[container][reader]") {
  const FakeProcTree tree = FakeProcTree::copy_of("cgroup/v1-hybrid-cgroupfs");
  const Found found = find(tree.root(), "/docker/" + kA);
  auto reader = ContainerReader::open(found.ref, found.mode);
  REQUIRE(reader.ok());
  CgroupStats stats;
  REQUIRE(reader->read(stats).ok());
  tree.file("cpuacct/docker/" + kA + "/cpuacct.usage", "662544060\n")
      .file("memory/docker/" + kA + "/memory.usage_in_bytes", "1\n");
  REQUIRE(reader->read_fast(stats, false).ok());
  CHECK(stats.cpu.usage_us == 662544);
  CHECK(stats.memory.usage_bytes != 1);
  REQUIRE(reader->read_fast(stats, true).ok());
  CHECK(stats.memory.usage_bytes == 1);
}
