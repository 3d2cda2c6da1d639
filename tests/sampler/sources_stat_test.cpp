#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "fake_proc_tree.h"
#include "flightrec/sampler/file_reader.h"
#include "flightrec/sampler/sources/stat.h"

using flightrec::sampler::kAbsent;
using flightrec::sampler::kStatCpuModes;
using flightrec::sampler::ProcRoot;
using flightrec::sampler::SampleStatus;
using flightrec::sampler::Schema;
using flightrec::testing::FakeProcTree;

namespace {

const std::filesystem::path kFixtures = FLIGHTREC_FIXTURES;

std::string fixture_text(const std::string& relative) {
  return flightrec::sampler::read_file(kFixtures / relative);
}

// Values after the CPU runs: ctxt, intr, processes, procs_running, procs_blocked.
size_t scalar_offset(const flightrec::sampler::StatLayout& layout) {
  return (layout.cpu_ids.size() + 1) * kStatCpuModes;
}

}  // namespace

TEST_CASE("parse_stat reads every CPU mode and the scalar counters of a real /proc/stat",
          "[sources][stat]") {
  const std::string text = fixture_text("proc-debian12-vm/stat");
  const auto layout = flightrec::sampler::parse_stat_layout(text);
  REQUIRE(layout.cpu_ids == std::vector<uint32_t>{0, 1});
  std::vector<int64_t> out(flightrec::sampler::stat_value_count(layout));

  CHECK(flightrec::sampler::parse_stat(text, layout, out) == SampleStatus::ok);
  // cpu  23440 0 3384 125806 355 0 58 29 0 0
  CHECK(std::vector<int64_t>(out.begin(), out.begin() + 10) ==
        std::vector<int64_t>{23440, 0, 3384, 125806, 355, 0, 58, 29, 0, 0});
  // cpu1 12396 0 1763 62235 95 0 35 14 0 0
  CHECK(out[2 * kStatCpuModes + 0] == 12396);
  CHECK(out[2 * kStatCpuModes + 3] == 62235);
  const size_t scalars = scalar_offset(layout);
  CHECK(out[scalars + 0] == 416238);  // ctxt
  CHECK(out[scalars + 1] == 293481);  // intr total
  CHECK(out[scalars + 2] == 9888);    // processes
  CHECK(out[scalars + 3] == 1);       // procs_running
  CHECK(out[scalars + 4] == 0);       // procs_blocked
}

TEST_CASE("parse_stat places each of 64 CPUs in its own run", "[sources][stat]") {
  const std::string text = fixture_text("proc-64cpu/stat");
  const auto layout = flightrec::sampler::parse_stat_layout(text);
  REQUIRE(layout.cpu_ids.size() == 64);
  std::vector<int64_t> out(flightrec::sampler::stat_value_count(layout));

  CHECK(flightrec::sampler::parse_stat(text, layout, out) == SampleStatus::ok);
  // The fixture holds cpu i, mode m = i * 100 + m + 1.
  for (size_t cpu = 0; cpu < 64; ++cpu) {
    for (size_t mode = 0; mode < kStatCpuModes; ++mode) {
      INFO("cpu " << cpu << " mode " << mode);
      CHECK(out[(cpu + 1) * kStatCpuModes + mode] == static_cast<int64_t>(cpu * 100 + mode + 1));
    }
  }
  CHECK(out[scalar_offset(layout) + 1] == 123456789);
}

TEST_CASE("parse_stat gives kAbsent for a CPU that disappeared and ignores one that appeared",
          "[sources][stat]") {
  const auto layout = flightrec::sampler::parse_stat_layout(
      "cpu  1 2 3 4 5 6 7 8 9 10\ncpu0 1 1 1 1 1 1 1 1 1 1\ncpu1 2 2 2 2 2 2 2 2 2 2\n");
  std::vector<int64_t> out(flightrec::sampler::stat_value_count(layout));

  const auto status = flightrec::sampler::parse_stat(
      "cpu  1 2 3 4 5 6 7 8 9 10\ncpu1 3 3 3 3 3 3 3 3 3 3\ncpu2 9 9 9 9 9 9 9 9 9 9\n"
      "ctxt 5\nintr 6 0\nprocesses 7\nprocs_running 1\nprocs_blocked 0\n",
      layout, out);

  CHECK(status == SampleStatus::partial);
  CHECK(out[kStatCpuModes] == kAbsent);        // cpu0 went offline
  CHECK(out[2 * kStatCpuModes] == 3);          // cpu1 still read
  CHECK(out.size() == 3 * kStatCpuModes + 5);  // cpu2 has no place
  CHECK(out[3 * kStatCpuModes] == 5);          // and did not overwrite ctxt
}

TEST_CASE("parse_stat keeps what precedes a cut or garbage and reports partial",
          "[sources][stat]") {
  SECTION("file cut in the middle of the cpu1 line") {
    const std::string full = fixture_text("proc-debian12-vm/stat");
    const auto layout = flightrec::sampler::parse_stat_layout(full);
    std::vector<int64_t> out(flightrec::sampler::stat_value_count(layout));
    const std::string cut = fixture_text("proc-truncated/stat");

    CHECK(flightrec::sampler::parse_stat(cut, layout, out) == SampleStatus::partial);
    CHECK(out[0] != kAbsent);  // aggregate line complete
    // "cpu1 1239": a number cut short cannot be told from a smaller one.
    CHECK(out[2 * kStatCpuModes] == 1239);
    CHECK(out[2 * kStatCpuModes + 9] == kAbsent);  // its last did not
    CHECK(out[scalar_offset(layout)] == kAbsent);  // ctxt came after the cut
  }
  SECTION("garbage numbers") {
    const std::string text = fixture_text("proc-garbage/stat");
    const auto layout = flightrec::sampler::parse_stat_layout(text);
    std::vector<int64_t> out(flightrec::sampler::stat_value_count(layout));

    CHECK(flightrec::sampler::parse_stat(text, layout, out) == SampleStatus::partial);
    CHECK(out[kStatCpuModes] == 12);           // cpu0 "12 x4 ...": first value kept
    CHECK(out[kStatCpuModes + 1] == kAbsent);  // "x4" and everything after it absent
    CHECK(out[2 * kStatCpuModes + 0] == 88);   // cpu1 untouched
    const size_t scalars = scalar_offset(layout);
    CHECK(out[scalars + 0] == 326633);   // ctxt
    CHECK(out[scalars + 1] == kAbsent);  // intr overflows int64
    CHECK(out[scalars + 2] == kAbsent);  // processes is negative
  }
}

TEST_CASE("parse_stat of an empty file fails with every value absent", "[sources][stat]") {
  const auto layout = flightrec::sampler::parse_stat_layout(fixture_text("proc-64cpu/stat"));
  std::vector<int64_t> out(flightrec::sampler::stat_value_count(layout), 0);

  CHECK(flightrec::sampler::parse_stat("", layout, out) == SampleStatus::failed);
  CHECK(std::count(out.begin(), out.end(), kAbsent) == static_cast<long>(out.size()));
}

TEST_CASE("parse_stat refuses an output span of the wrong size", "[sources][stat]") {
  const auto layout = flightrec::sampler::parse_stat_layout(fixture_text("proc-64cpu/stat"));
  std::vector<int64_t> out(10, 0);
  CHECK(flightrec::sampler::parse_stat(fixture_text("proc-64cpu/stat"), layout, out) ==
        SampleStatus::failed);
  CHECK(out[0] == kAbsent);
}

TEST_CASE("stat source describes per-CPU, aggregate and guest families in sample order",
          "[sources][stat]") {
  const auto source =
      flightrec::sampler::make_stat_source(ProcRoot{kFixtures / "proc-debian12-vm"});
  Schema schema;
  source->describe(schema);

  REQUIRE(schema.size() == 3 * kStatCpuModes + 5);
  CHECK(source->name() == "stat");
  CHECK(schema[0].name == "cpu_aggregate_seconds_total");
  CHECK(schema[0].labels == decltype(schema[0].labels){{"mode", "user"}});
  CHECK(schema[8].name == "cpu_aggregate_guest_seconds_total");
  CHECK(schema[kStatCpuModes + 2].name == "cpu_seconds_total");
  CHECK(schema[kStatCpuModes + 2].labels ==
        decltype(schema[0].labels){{"cpu", "0"}, {"mode", "system"}});
  CHECK(schema[2 * kStatCpuModes + 9].name == "cpu_guest_seconds_total");
  CHECK(schema[2 * kStatCpuModes + 9].labels ==
        decltype(schema[0].labels){{"cpu", "1"}, {"mode", "nice"}});
  CHECK(schema[3 * kStatCpuModes].name == "context_switches_total");
  CHECK(schema.back().name == "procs_blocked");
  CHECK(schema[0].scale == Approx(1.0 / static_cast<double>(::sysconf(_SC_CLK_TCK))));
  for (const auto& desc : schema) {
    CHECK(desc.source == "/proc/stat");
    CHECK_FALSE(desc.help.empty());
  }
}

TEST_CASE("stat source reports values as read, even when a counter goes backwards",
          "[sources][stat]") {
  const FakeProcTree proc;
  const auto write = [&](int64_t user) {
    const std::string ticks = std::to_string(user) + " 0 0 0 0 0 0 0 0 0\n";
    proc.file("stat", "cpu  " + ticks + "cpu0 " + ticks +
                          "ctxt 1\nintr 1\nprocesses 1\nprocs_running 1\nprocs_blocked 0\n");
  };
  write(500);
  const auto source = flightrec::sampler::make_stat_source(ProcRoot{proc.root()});
  Schema schema;
  source->describe(schema);
  std::vector<int64_t> out(schema.size());

  REQUIRE(source->sample(out) == SampleStatus::ok);
  CHECK(out[0] == 500);
  write(400);
  REQUIRE(source->sample(out) == SampleStatus::ok);
  CHECK(out[0] == 400);
  CHECK(out[kStatCpuModes] == 400);
}

TEST_CASE("stat source reads the live /proc/stat", "[sources][stat]") {
  const auto source = flightrec::sampler::make_stat_source(ProcRoot{});
  Schema schema;
  source->describe(schema);
  std::vector<int64_t> out(schema.size());
  CHECK(source->sample(out) == SampleStatus::ok);
  CHECK(out[3] > 0);  // aggregate idle
}

TEST_CASE("make_stat_source names the file it cannot open", "[sources][stat]") {
  CHECK_THROWS_WITH(flightrec::sampler::make_stat_source(ProcRoot{"/nonexistent/flightrec"}),
                    Catch::Matchers::Contains("/nonexistent/flightrec/stat"));
  CHECK_THROWS_WITH(flightrec::sampler::make_stat_source(ProcRoot{kFixtures / "proc-empty"}),
                    Catch::Matchers::Contains("proc-empty/stat"));
}
