#include <unistd.h>

#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "flightrec/sampler/file_reader.h"
#include "flightrec/sampler/sources/loadavg.h"
#include "flightrec/sampler/sources/vmstat.h"

using flightrec::sampler::kAbsent;
using flightrec::sampler::kLoadavgValues;
using flightrec::sampler::kVmstatFields;
using flightrec::sampler::ProcRoot;
using flightrec::sampler::SampleStatus;

namespace {
const std::filesystem::path kFixtures = FLIGHTREC_FIXTURES;
using Loads = std::array<int64_t, kLoadavgValues>;
using Vmstat = std::array<int64_t, kVmstatFields.size()>;
}  // namespace

TEST_CASE("parse_loadavg stores load averages as hundredths and the thread counts",
          "[sources][loadavg]") {
  Loads out{};
  CHECK(flightrec::sampler::parse_loadavg("0.82 0.54 12.06 1/82 9889\n", out) == SampleStatus::ok);
  CHECK(out == Loads{82, 54, 1206, 1, 82});
}

TEST_CASE("parse_loadavg stops at the first malformed field", "[sources][loadavg]") {
  Loads out{};
  SECTION("garbage in load1") {
    const std::string text = flightrec::sampler::read_file(kFixtures / "proc-garbage/loadavg");
    CHECK(flightrec::sampler::parse_loadavg(text, out) == SampleStatus::failed);
    CHECK(std::count(out.begin(), out.end(), kAbsent) == 5);
  }
  SECTION("cut inside load5") {
    const std::string text = flightrec::sampler::read_file(kFixtures / "proc-truncated/loadavg");
    CHECK(flightrec::sampler::parse_loadavg(text, out) == SampleStatus::partial);
    CHECK(out == Loads{14, kAbsent, kAbsent, kAbsent, kAbsent});
  }
  SECTION("one decimal only") {
    CHECK(flightrec::sampler::parse_loadavg("0.8 0.54 0.26 1/82 9889\n", out) ==
          SampleStatus::failed);
  }
  SECTION("thread counts without the slash") {
    CHECK(flightrec::sampler::parse_loadavg("0.82 0.54 0.26 1 82 9889\n", out) ==
          SampleStatus::partial);
    CHECK(out[2] == 26);
    CHECK(out[3] == kAbsent);
  }
}

TEST_CASE("loadavg source scales hundredths and reads its fixture", "[sources][loadavg]") {
  const auto source =
      flightrec::sampler::make_loadavg_source(ProcRoot{kFixtures / "proc-debian12-vm"});
  flightrec::sampler::Schema schema;
  source->describe(schema);
  REQUIRE(schema.size() == kLoadavgValues);
  CHECK(schema[0].name == "load1");
  CHECK(schema[0].scale == Approx(0.01));
  CHECK(schema[4].name == "threads");
  Loads out{};
  CHECK(source->sample(out) == SampleStatus::ok);
  CHECK(out == Loads{82, 54, 26, 1, 82});
}

TEST_CASE("parse_vmstat picks the selected counters out of a real /proc/vmstat",
          "[sources][vmstat]") {
  const std::string text = flightrec::sampler::read_file(kFixtures / "proc-debian12-vm/vmstat");
  Vmstat out{};
  CHECK(flightrec::sampler::parse_vmstat(text, out) == SampleStatus::ok);
  // pgfault pgmajfault pswpin pswpout pgpgin pgpgout oom_kill
  CHECK(out == Vmstat{7619962, 780, 0, 0, 1143217, 1176512, 0});
}

TEST_CASE("parse_vmstat leaves missing and malformed counters absent", "[sources][vmstat]") {
  const std::string text = flightrec::sampler::read_file(kFixtures / "proc-garbage/vmstat");
  Vmstat out{};
  CHECK(flightrec::sampler::parse_vmstat(text, out) == SampleStatus::partial);
  // "pgfault abc", "pgmajfault 773", "pswpin 1 2" (the extra number is ignored), "pswpout 0"
  CHECK(out[0] == kAbsent);
  CHECK(out[1] == 773);
  CHECK(out[2] == 1);
  CHECK(out[3] == 0);
  CHECK(out[6] == kAbsent);  // oom_kill not in the file
  CHECK(flightrec::sampler::parse_vmstat("", out) == SampleStatus::failed);
}

TEST_CASE("vmstat source turns pages and KiB into bytes through its scales", "[sources][vmstat]") {
  const auto source = flightrec::sampler::make_vmstat_source(ProcRoot{});
  flightrec::sampler::Schema schema;
  source->describe(schema);
  REQUIRE(schema.size() == kVmstatFields.size());
  CHECK(schema[2].name == "swap_in_bytes_total");
  CHECK(schema[2].scale == Approx(static_cast<double>(::sysconf(_SC_PAGESIZE))));
  CHECK(schema[4].name == "paged_in_bytes_total");
  CHECK(schema[4].scale == Approx(1024.0));
  Vmstat out{};
  CHECK(source->sample(out) == SampleStatus::ok);
  CHECK(out[0] > 0);
}
