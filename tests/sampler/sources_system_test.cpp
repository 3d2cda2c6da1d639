#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "allocation_counter.h"
#include "flightrec/config/config.h"
#include "flightrec/sampler/sources/system_sources.h"

using flightrec::config::Config;
using flightrec::sampler::ProcRoot;
using flightrec::sampler::SampleStatus;
using flightrec::sampler::Schema;

namespace {

const std::filesystem::path kFixtures = FLIGHTREC_FIXTURES;

ProcRoot fixture_root(const std::string& proc) {
  ProcRoot root;
  root.procfs = kFixtures / proc;
  root.sysfs = kFixtures / "sys-debian12-vm";
  root.cgroupfs = kFixtures / "sys-debian12-vm/fs/cgroup";
  return root;
}

std::vector<std::string> names(const flightrec::sampler::OpenedSources& opened) {
  std::vector<std::string> out;
  for (const auto& source : opened.sources) out.emplace_back(source->name());
  return out;
}

}  // namespace

TEST_CASE("open_system_sources opens every enabled source in a fixed order", "[sources][system]") {
  const auto opened =
      flightrec::sampler::open_system_sources(fixture_root("proc-debian12-vm"), Config{}.sources);
  CHECK(names(opened) == std::vector<std::string>{"stat", "cgroup_cpu", "meminfo", "loadavg",
                                                  "pressure", "vmstat", "diskstats", "netdev"});
  CHECK(opened.skipped.empty());
  for (const auto& source : opened.sources) {
    Schema schema;
    source->describe(schema);
    std::vector<int64_t> out(schema.size());
    INFO(source->name());
    CHECK(source->sample(out) == SampleStatus::ok);
  }
}

TEST_CASE("open_system_sources skips what the host lacks and what the config disables",
          "[sources][system]") {
  Config::Sources config = Config{}.sources;
  config.at("vmstat").enabled = false;
  config.at("netdev").enabled = false;
  ProcRoot root = fixture_root("proc-nopsi");
  root.cgroupfs = "/nonexistent/cgroup";

  const auto opened = flightrec::sampler::open_system_sources(root, config);

  CHECK(names(opened) == std::vector<std::string>{"stat", "meminfo", "loadavg", "diskstats"});
  REQUIRE(opened.skipped.size() == 2);
  CHECK_THAT(opened.skipped[0], Catch::Matchers::StartsWith("cgroup_cpu: "));
  CHECK_THAT(opened.skipped[1], Catch::Matchers::StartsWith("pressure: ") &&
                                    Catch::Matchers::EndsWith("proc-nopsi/pressure not present"));
}

TEST_CASE("every source the sampler builds is declared in the embedded defaults, and only those",
          "[sources][system]") {
  std::vector<std::string> built;
  for (std::string_view name : flightrec::sampler::system_source_names()) built.emplace_back(name);
  std::vector<std::string> declared;
  for (const auto& [name, settings] : flightrec::config::default_source_settings()) {
    declared.push_back(name);
  }
  std::sort(built.begin(), built.end());
  CHECK(built == declared);
}

TEST_CASE("a keyed source's settings reach it: max_keys bounds the disks recorded",
          "[sources][system]") {
  Config::Sources config = Config{}.sources;
  for (auto& [name, settings] : config) settings.enabled = name == "diskstats";
  config.at("diskstats").keys->filter = {};
  config.at("diskstats").keys->max_keys = 1;

  const auto opened =
      flightrec::sampler::open_system_sources(fixture_root("proc-many-disks"), config);

  REQUIRE(opened.sources.size() == 1);
  Schema schema;
  opened.sources[0]->describe(schema);
  Config::Sources wider = config;
  wider.at("diskstats").keys->max_keys = 2;
  Schema wider_schema;
  flightrec::sampler::open_system_sources(fixture_root("proc-many-disks"), wider)
      .sources[0]
      ->describe(wider_schema);
  CHECK(wider_schema.size() > schema.size());
}

TEST_CASE("open_system_sources names the source whose file is missing", "[sources][system]") {
  CHECK_THROWS_WITH(
      flightrec::sampler::open_system_sources(fixture_root("proc-psi-partial"), Config{}.sources),
      Catch::Matchers::StartsWith("stat: ") && Catch::Matchers::Contains("proc-psi-partial/stat"));
}

TEST_CASE("system sources sample the live host without allocating after the first read",
          "[sources][system]") {
  auto opened = flightrec::sampler::open_system_sources(ProcRoot{}, Config{}.sources);
  std::vector<std::vector<int64_t>> frames;
  for (const auto& source : opened.sources) {
    Schema schema;
    source->describe(schema);
    frames.emplace_back(schema.size());
    (void)source->sample(frames.back());
  }

  std::vector<SampleStatus> statuses(opened.sources.size());
  size_t allocated = 0;
  {
    flightrec::testing::CountAllocations allocations;
    for (size_t i = 0; i < opened.sources.size(); ++i) {
      statuses[i] = opened.sources[i]->sample(frames[i]);
    }
    allocated = allocations.count();
  }
  CHECK(allocated == 0);
  for (size_t i = 0; i < opened.sources.size(); ++i) {
    INFO(opened.sources[i]->name());
    CHECK(statuses[i] != SampleStatus::failed);
  }
}
