#include <array>
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "flightrec/sampler/file_reader.h"
#include "flightrec/sampler/sources/cgroup_cpu.h"
#include "flightrec/sampler/sources/pressure.h"

using flightrec::sampler::kAbsent;
using flightrec::sampler::ProcRoot;
using flightrec::sampler::SampleStatus;
using flightrec::sampler::Schema;
using flightrec::sampler::SourceUnavailable;

namespace {

const std::filesystem::path kFixtures = FLIGHTREC_FIXTURES;
using Cgroup = std::array<int64_t, 3>;
using Psi = std::array<int64_t, 2>;

ProcRoot cgroup_root(const std::filesystem::path& cgroupfs) {
  ProcRoot root;
  root.cgroupfs = cgroupfs;
  return root;
}

}  // namespace

TEST_CASE("parse_cgroup_cpu reads usage, user and system microseconds", "[sources][cgroup_cpu]") {
  Cgroup out{};
  CHECK(flightrec::sampler::parse_cgroup_cpu("usage_usec 70408866\nuser_usec 56909957\n"
                                             "system_usec 13498909\nnice_usec 0\n",
                                             out) == SampleStatus::ok);
  CHECK(out == Cgroup{70408866, 56909957, 13498909});
  CHECK(flightrec::sampler::parse_cgroup_cpu("usage_usec 5\nuser_usec x\n", out) ==
        SampleStatus::partial);
  CHECK(out == Cgroup{5, kAbsent, kAbsent});
}

TEST_CASE("cgroup_cpu source finds cpu.stat on hybrid and pure cgroup v2 layouts",
          "[sources][cgroup_cpu]") {
  SECTION("hybrid: <cgroupfs>/unified/cpu.stat") {
    const auto source = flightrec::sampler::make_cgroup_cpu_source(
        cgroup_root(kFixtures / "sys-debian12-vm/fs/cgroup"));
    Schema schema;
    source->describe(schema);
    REQUIRE(schema.size() == 3);
    CHECK(schema[0].name == "cgroup_cpu_usage_seconds_total");
    CHECK(schema[0].scale == Approx(1e-6));
    CHECK(schema[0].source == "/sys/fs/cgroup/unified/cpu.stat");
    Cgroup out{};
    CHECK(source->sample(out) == SampleStatus::ok);
    CHECK(out[0] > 0);
  }
  SECTION("pure v2: <cgroupfs>/cpu.stat") {
    const auto source = flightrec::sampler::make_cgroup_cpu_source(
        cgroup_root(kFixtures / "sys-cgroup2/fs/cgroup"));
    Schema schema;
    source->describe(schema);
    CHECK(schema[1].source == "/sys/fs/cgroup/cpu.stat");
    Cgroup out{};
    CHECK(source->sample(out) == SampleStatus::ok);
    CHECK(out == Cgroup{1000000, 600000, 400000});
  }
}

TEST_CASE("cgroup_cpu source is unavailable without a cgroup v2 cpu.stat",
          "[sources][cgroup_cpu]") {
  CHECK_THROWS_AS(flightrec::sampler::make_cgroup_cpu_source(cgroup_root("/nonexistent/cgroup")),
                  SourceUnavailable);
}

TEST_CASE("parse_pressure reads the some and full totals", "[sources][pressure]") {
  Psi out{};
  const std::string io = flightrec::sampler::read_file(kFixtures / "proc-debian12-vm/pressure/io");
  CHECK(flightrec::sampler::parse_pressure(io, out) == SampleStatus::ok);
  CHECK(out == Psi{2399863, 2242595});
}

TEST_CASE("parse_pressure leaves a missing full line or a bad total absent",
          "[sources][pressure]") {
  Psi out{};
  CHECK(flightrec::sampler::parse_pressure("some avg10=1.00 avg60=0.50 avg300=0.10 total=123456\n",
                                           out) == SampleStatus::partial);
  CHECK(out == Psi{123456, kAbsent});

  const std::string garbage =
      flightrec::sampler::read_file(kFixtures / "proc-garbage/pressure/cpu");
  CHECK(flightrec::sampler::parse_pressure(garbage, out) == SampleStatus::partial);
  CHECK(out == Psi{kAbsent, 0});  // "total=12x"

  const std::string cut = flightrec::sampler::read_file(kFixtures / "proc-truncated/pressure/cpu");
  CHECK(flightrec::sampler::parse_pressure(cut, out) == SampleStatus::partial);
  CHECK(out == Psi{4450529, kAbsent});

  CHECK(flightrec::sampler::parse_pressure("", out) == SampleStatus::failed);
}

TEST_CASE("pressure source reads cpu, memory and io with a resource label", "[sources][pressure]") {
  const auto source =
      flightrec::sampler::make_pressure_source(ProcRoot{kFixtures / "proc-debian12-vm"});
  Schema schema;
  source->describe(schema);
  REQUIRE(schema.size() == 6);
  CHECK(schema[0].name == "pressure_some_seconds_total");
  CHECK(schema[1].name == "pressure_full_seconds_total");
  CHECK(schema[5].labels == decltype(schema[5].labels){{"resource", "io"}});
  CHECK(schema[5].source == "/proc/pressure/io");
  std::array<int64_t, 6> out{};
  CHECK(source->sample(out) == SampleStatus::ok);
  CHECK(out == std::array<int64_t, 6>{25522949, 0, 0, 0, 2399863, 2242595});
}

TEST_CASE("pressure source keeps going when one file is missing", "[sources][pressure]") {
  const auto source =
      flightrec::sampler::make_pressure_source(ProcRoot{kFixtures / "proc-psi-partial"});
  std::array<int64_t, 6> out{};
  CHECK(source->sample(out) == SampleStatus::partial);
  // cpu has no full line; io is not there at all.
  CHECK(out == std::array<int64_t, 6>{123456, kAbsent, 777, 555, kAbsent, kAbsent});
}

TEST_CASE("pressure source is unavailable without /proc/pressure", "[sources][pressure]") {
  CHECK_THROWS_AS(flightrec::sampler::make_pressure_source(ProcRoot{kFixtures / "proc-nopsi"}),
                  SourceUnavailable);
  CHECK_THROWS_WITH(flightrec::sampler::make_pressure_source(ProcRoot{kFixtures / "proc-nopsi"}),
                    Catch::Matchers::Contains("proc-nopsi/pressure not present"));
}
