#include <array>
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "flightrec/sampler/file_reader.h"
#include "flightrec/sampler/sources/meminfo.h"

using flightrec::sampler::kAbsent;
using flightrec::sampler::kMeminfoFields;
using flightrec::sampler::ProcRoot;
using flightrec::sampler::SampleStatus;

namespace {

const std::filesystem::path kFixtures = FLIGHTREC_FIXTURES;
using Values = std::array<int64_t, kMeminfoFields.size()>;

size_t field(std::string_view name) {
  return static_cast<size_t>(std::find(kMeminfoFields.begin(), kMeminfoFields.end(), name) -
                             kMeminfoFields.begin());
}

}  // namespace

TEST_CASE("parse_meminfo stores kB fields as bytes and HugePages counts as they are",
          "[sources][meminfo]") {
  const std::string text = flightrec::sampler::read_file(kFixtures / "proc-debian12-vm/meminfo");
  Values out{};

  CHECK(flightrec::sampler::parse_meminfo(text, out) == SampleStatus::ok);
  CHECK(out[field("MemTotal")] == 24684092LL * 1024);
  CHECK(out[field("MemFree")] == 22352812LL * 1024);
  CHECK(out[field("Cached")] == 1972072LL * 1024);
  CHECK(out[field("HugePages_Total")] == 0);
  CHECK(out[field("Hugepagesize")] == 2048LL * 1024);
}

TEST_CASE("parse_meminfo finds fields in any order and ignores unknown ones",
          "[sources][meminfo]") {
  Values out{};
  const auto status = flightrec::sampler::parse_meminfo(
      "Zswap: 1 kB\nHugePages_Free:  3\nMemAvailable:  10 kB\nActive(anon):  5 kB\n", out);

  CHECK(status == SampleStatus::partial);
  CHECK(out[field("HugePages_Free")] == 3);
  CHECK(out[field("MemAvailable")] == 10240);
  CHECK(out[field("Active")] == kAbsent);  // "Active(anon)" is a different field
  CHECK(out[field("MemTotal")] == kAbsent);
}

TEST_CASE("parse_meminfo leaves malformed values absent", "[sources][meminfo]") {
  const std::string text = flightrec::sampler::read_file(kFixtures / "proc-garbage/meminfo");
  Values out{};

  CHECK(flightrec::sampler::parse_meminfo(text, out) == SampleStatus::partial);
  CHECK(out[field("MemTotal")] == 24684092LL * 1024);
  CHECK(out[field("MemFree")] == kAbsent);       // "12ab kB"
  CHECK(out[field("MemAvailable")] == kAbsent);  // negative
  CHECK(out[field("Buffers")] == kAbsent);       // does not fit int64
  CHECK(out[field("Cached")] == kAbsent);        // unknown unit "MB"
  CHECK(out[field("SwapCached")] == kAbsent);    // fits, but not once multiplied by 1024
  CHECK(out[field("HugePages_Total")] == 7);
}

TEST_CASE("parse_meminfo of a truncated or empty file keeps what was complete",
          "[sources][meminfo]") {
  Values out{};
  const std::string cut = flightrec::sampler::read_file(kFixtures / "proc-truncated/meminfo");
  CHECK(flightrec::sampler::parse_meminfo(cut, out) == SampleStatus::partial);
  CHECK(out[field("Buffers")] == 54276LL * 1024);
  CHECK(out[field("SwapCached")] == kAbsent);  // after the cut

  CHECK(flightrec::sampler::parse_meminfo("", out) == SampleStatus::failed);
  CHECK(out[field("MemTotal")] == kAbsent);
}

TEST_CASE("meminfo source describes byte gauges from /proc/meminfo and samples the live file",
          "[sources][meminfo]") {
  const auto source = flightrec::sampler::make_meminfo_source(ProcRoot{});
  flightrec::sampler::Schema schema;
  source->describe(schema);
  REQUIRE(schema.size() == kMeminfoFields.size());
  CHECK(schema[field("MemAvailable")].name == "memory_available_bytes");
  CHECK(schema[field("HugePages_Total")].name == "memory_huge_pages");
  CHECK(schema[field("HugePages_Total")].unit.empty());
  for (const auto& desc : schema) {
    CHECK(desc.source == "/proc/meminfo");
    CHECK(desc.kind == flightrec::sampler::SeriesKind::gauge);
  }
  std::array<int64_t, kMeminfoFields.size()> out{};
  CHECK(source->sample(out) == SampleStatus::ok);
  CHECK(out[field("MemTotal")] > 0);
}
