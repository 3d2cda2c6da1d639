#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "fake_proc_tree.h"
#include "flightrec/config/config.h"
#include "flightrec/sampler/file_reader.h"
#include "flightrec/sampler/sources/diskstats.h"

using flightrec::config::KeyFilter;
using flightrec::sampler::DiskstatsFormat;
using flightrec::sampler::kAbsent;
using flightrec::sampler::kDiskstatsFields;
using flightrec::sampler::KeySlots;
using flightrec::sampler::ProcRoot;
using flightrec::sampler::RowParse;
using flightrec::sampler::SampleStatus;
using flightrec::sampler::Schema;
using flightrec::testing::FakeProcTree;

namespace {

const std::filesystem::path kFixtures = FLIGHTREC_FIXTURES;
// The default exclude filter from config.h: ram, loop, floppy devices and partitions.
const KeyFilter kDefaultFilter = flightrec::config::Config{}.sources.at("diskstats").keys->filter;

std::string fixture_text(const std::string& relative) {
  return flightrec::sampler::read_file(kFixtures / relative);
}

std::vector<std::string> bound_names(const KeySlots& keys) {
  std::vector<std::string> names;
  for (uint32_t slot = 0; slot < keys.table().bound(); ++slot) {
    names.emplace_back(keys.table().name(slot));
  }
  return names;
}

int64_t value(const std::vector<int64_t>& out, uint32_t slot, size_t field) {
  return out[slot * kDiskstatsFields + field];
}

}  // namespace

namespace {

// Splits and reads one line the way parse_diskstats does.
bool read_line(std::string_view line, std::string_view& device,
               std::array<int64_t, kDiskstatsFields>& values) {
  values.fill(kAbsent);
  std::string_view rest;
  return DiskstatsFormat::split(line, device, rest) == RowParse::row &&
         DiskstatsFormat::read_values(rest, values);
}

}  // namespace

TEST_CASE("DiskstatsFormat converts sectors to bytes and keeps milliseconds",
          "[sources][diskstats]") {
  std::array<int64_t, kDiskstatsFields> values{};
  std::string_view device;
  REQUIRE(read_line(
      " 254       0 vda 27639 5255 2286434 8414 23132 10228 2353024 7136 0 5280 16033 6141 40 "
      "716528 463 900 18",
      device, values));
  CHECK(device == "vda");
  CHECK(values == std::array<int64_t, kDiskstatsFields>{
                      27639, 5255, 2286434LL * 512, 8414, 23132, 10228, 2353024LL * 512, 7136, 0,
                      5280, 16033, 6141, 40, 716528LL * 512, 463, 900, 18});
}

TEST_CASE("DiskstatsFormat accepts the 11-field format and extra future columns",
          "[sources][diskstats]") {
  std::array<int64_t, kDiskstatsFields> values{};
  std::string_view device;
  REQUIRE(read_line("8 0 sda 1 2 3 4 5 6 7 8 9 10 11", device, values));
  CHECK(values[10] == 11);
  CHECK(values[11] == kAbsent);  // no discard fields before Linux 4.18
  CHECK(values[16] == kAbsent);
  REQUIRE(read_line("8 0 sda 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19", device, values));
  CHECK(values[16] == 17);
}

TEST_CASE("DiskstatsFormat rejects short and garbled lines", "[sources][diskstats]") {
  std::array<int64_t, kDiskstatsFields> values{};
  std::string_view device;
  CHECK_FALSE(read_line("8 0 sda 1 2 3", device, values));
  CHECK_FALSE(read_line("8 0 sda 1 2 3 4 5 6 7 8 9 10 11 x", device, values));
  CHECK_FALSE(read_line("a b sda 1 2 3 4 5 6 7 8 9 10 11", device, values));
  CHECK_FALSE(read_line("8 0", device, values));
  std::string_view rest;
  CHECK(DiskstatsFormat::split("   ", device, rest) == RowParse::skip);
}

TEST_CASE("parse_diskstats keeps the devices the default filter lets through",
          "[sources][diskstats]") {
  KeySlots keys("diskstats", kDefaultFilter, 8);
  std::vector<int64_t> out(8 * kDiskstatsFields);

  CHECK(flightrec::sampler::parse_diskstats(fixture_text("proc-many-disks/diskstats"), keys, out) ==
        SampleStatus::ok);
  // ram*, loop* and the partitions sda1, sda2, nvme0n1p1 are excluded.
  CHECK(bound_names(keys) == std::vector<std::string>{"sda", "nvme0n1", "dm-0", "vdb", "sr0"});
  CHECK(value(out, 0, 0) == 1000);        // sda reads
  CHECK(value(out, 2, 2) == 6002 * 512);  // dm-0 read bytes
  CHECK(value(out, 3, 10) == 7010);       // vdb: 11 fields
  CHECK(value(out, 3, 11) == kAbsent);
  CHECK(value(out, 4, 14) == 8014);  // sr0: 15 fields
  CHECK(value(out, 4, 15) == kAbsent);
  CHECK(value(out, 5, 0) == kAbsent);  // unbound slot
  CHECK(keys.dropped_keys() == 0);
}

TEST_CASE("parse_diskstats drops devices beyond max_keys and counts them", "[sources][diskstats]") {
  KeySlots keys("diskstats", KeyFilter{}, 4);
  std::vector<int64_t> out(4 * kDiskstatsFields);
  const std::string text = fixture_text("proc-many-disks/diskstats");

  CHECK(flightrec::sampler::parse_diskstats(text, keys, out) == SampleStatus::ok);
  CHECK(flightrec::sampler::parse_diskstats(text, keys, out) == SampleStatus::ok);
  CHECK(bound_names(keys) == std::vector<std::string>{"ram0", "ram1", "ram2", "ram3"});
  CHECK(keys.dropped_keys() == 16 + 4 + 8 - 4);  // counted once per name, not per read
}

TEST_CASE("parse_diskstats skips malformed lines and reports partial", "[sources][diskstats]") {
  KeySlots keys("diskstats", KeyFilter{}, 8);
  std::vector<int64_t> out(8 * kDiskstatsFields);

  CHECK(flightrec::sampler::parse_diskstats(fixture_text("proc-garbage/diskstats"), keys, out) ==
        SampleStatus::partial);
  // vda and vdb have readable names but garbled values: bound, yet absent.
  CHECK(bound_names(keys) == std::vector<std::string>{"loop0", "vda", "vdb", "zram0"});
  CHECK(value(out, 0, 0) == 0);
  CHECK(value(out, 1, 0) == kAbsent);
  CHECK(value(out, 2, 0) == kAbsent);
  CHECK(value(out, 3, 10) == 11);

  CHECK(flightrec::sampler::parse_diskstats(fixture_text("proc-truncated/diskstats"), keys, out) ==
        SampleStatus::partial);
  CHECK(value(out, 0, 0) == 0);        // loop0 still there
  CHECK(value(out, 1, 0) == kAbsent);  // vda cut after 3 numbers
  CHECK(value(out, 3, 0) == kAbsent);  // zram0 came after the cut

  CHECK(flightrec::sampler::parse_diskstats("", keys, out) == SampleStatus::failed);
}

TEST_CASE("diskstats source follows devices that vanish and appear between reads",
          "[sources][diskstats]") {
  const FakeProcTree proc;
  const auto write = [&](const std::string& text) { proc.file("diskstats", text); };
  const std::string sda = "   8       0 sda 1 0 0 0 0 0 0 0 0 0 0\n";
  const std::string sdb = "   8      16 sdb 2 0 0 0 0 0 0 0 0 0 0\n";
  const std::string sdc = "   8      32 sdc 3 0 0 0 0 0 0 0 0 0 0\n";
  write(sda + sdb);
  const auto source =
      flightrec::sampler::make_diskstats_source(ProcRoot{proc.root()}, KeyFilter{}, 3);
  Schema schema;
  source->describe(schema);
  std::vector<int64_t> out(schema.size());

  REQUIRE(source->sample(out) == SampleStatus::ok);
  CHECK(value(out, 0, 0) == 1);
  CHECK(value(out, 1, 0) == 2);
  write(sdc + sda);  // sdb vanished, sdc appeared, order changed
  REQUIRE(source->sample(out) == SampleStatus::ok);
  CHECK(value(out, 0, 0) == 1);        // sda keeps slot 0
  CHECK(value(out, 1, 0) == kAbsent);  // sdb's slot stays reserved, absent
  CHECK(value(out, 2, 0) == 3);        // sdc bound the free slot
  write(sdb + sdc);                    // sdb is back, sda gone
  REQUIRE(source->sample(out) == SampleStatus::ok);
  CHECK(value(out, 0, 0) == kAbsent);
  CHECK(value(out, 1, 0) == 2);
  CHECK(value(out, 2, 0) == 3);
}

TEST_CASE("diskstats source describes capacity x fields keyed series", "[sources][diskstats]") {
  const auto source = flightrec::sampler::make_diskstats_source(
      ProcRoot{kFixtures / "proc-debian12-vm"}, kDefaultFilter, 3);
  Schema schema;
  source->describe(schema);
  REQUIRE(schema.size() == 3 * kDiskstatsFields);
  const auto& keyed = dynamic_cast<const flightrec::sampler::PerKeySource&>(*source);
  for (size_t i = 0; i < schema.size(); ++i) {
    CHECK(schema[i].keys == &keyed.keys().table());
    CHECK(schema[i].key_slot == i / kDiskstatsFields);
    CHECK(schema[i].key_label == "device");
    CHECK(schema[i].source == "/proc/diskstats");
  }
  CHECK(schema[2].name == "disk_read_bytes_total");
  CHECK(schema[3].name == "disk_read_time_seconds_total");
  CHECK(schema[3].scale == Approx(1e-3));
  CHECK(schema[kDiskstatsFields + 8].name == "disk_io_now");
  CHECK(schema[kDiskstatsFields + 8].kind == flightrec::sampler::SeriesKind::gauge);

  std::vector<int64_t> out(schema.size());
  CHECK(source->sample(out) == SampleStatus::ok);
  CHECK(bound_names(keyed.keys()) == std::vector<std::string>{"vda", "zram0"});
  CHECK(value(out, 0, 0) == 27639);
  CHECK(keyed.dropped_keys() == 0);
}

TEST_CASE("make_diskstats_source rejects a bad regex naming the source", "[sources][diskstats]") {
  CHECK_THROWS_WITH(flightrec::sampler::make_diskstats_source(
                        ProcRoot{kFixtures / "proc-debian12-vm"}, KeyFilter{"[", ""}, 3),
                    Catch::Matchers::Contains("diskstats: bad include regex"));
}
