#include <array>
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "flightrec/config/config.h"
#include "flightrec/sampler/file_reader.h"
#include "flightrec/sampler/sources/netdev.h"

using flightrec::config::KeyFilter;
using flightrec::sampler::kAbsent;
using flightrec::sampler::KeySlots;
using flightrec::sampler::kNetdevFields;
using flightrec::sampler::NetdevFormat;
using flightrec::sampler::ProcRoot;
using flightrec::sampler::RowParse;
using flightrec::sampler::SampleStatus;
using flightrec::sampler::Schema;

namespace {
const std::filesystem::path kFixtures = FLIGHTREC_FIXTURES;
using Row = std::array<int64_t, kNetdevFields>;
}  // namespace

namespace {

// Splits and reads one line the way parse_netdev does.
RowParse read_line(std::string_view line, std::string_view& name, Row& values) {
  values.fill(kAbsent);
  std::string_view rest;
  const RowParse result = NetdevFormat::split(line, name, rest);
  if (result != RowParse::row) return result;
  return NetdevFormat::read_values(rest, values) ? RowParse::row : RowParse::malformed;
}

}  // namespace

TEST_CASE("NetdevFormat reads the 16 counters and skips the headers", "[sources][netdev]") {
  Row values{};
  std::string_view name;
  CHECK(read_line("  eth0: 53225335    1847    0    0    0     0          0         0    85336    "
                  "1155    0    0    0     0       0          0",
                  name, values) == RowParse::row);
  CHECK(name == "eth0");
  CHECK(values[0] == 53225335);
  CHECK(values[8] == 85336);
  CHECK(values[9] == 1155);
  CHECK(read_line("Inter-|   Receive                                                |  Transmit",
                  name, values) == RowParse::skip);
}

TEST_CASE("NetdevFormat reads names glued to the first number", "[sources][netdev]") {
  Row values{};
  std::string_view name;
  CHECK(read_line("eth0:1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16", name, values) == RowParse::row);
  CHECK(name == "eth0");
  CHECK(values[0] == 1);
  CHECK(values[15] == 16);
}

TEST_CASE("NetdevFormat rejects lines without a colon or 16 numbers", "[sources][netdev]") {
  Row values{};
  std::string_view name;
  CHECK(read_line("  eth1: 1 2 3", name, values) == RowParse::malformed);
  CHECK(read_line("  eth1: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17", name, values) ==
        RowParse::malformed);
  CHECK(read_line("  lo 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16", name, values) ==
        RowParse::malformed);
  CHECK(read_line("  : 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16", name, values) ==
        RowParse::malformed);
}

TEST_CASE("parse_netdev binds interfaces and reports partial on malformed lines",
          "[sources][netdev]") {
  KeySlots keys("netdev", KeyFilter{"", "^ifb"}, 4);
  std::vector<int64_t> out(4 * kNetdevFields);

  CHECK(flightrec::sampler::parse_netdev(
            flightrec::sampler::read_file(kFixtures / "proc-debian12-vm/net/dev"), keys, out) ==
        SampleStatus::ok);
  REQUIRE(keys.table().bound() == 2);
  CHECK(keys.table().name(0) == "lo");
  CHECK(keys.table().name(1) == "eth0");
  CHECK(out[0] == 136167);
  CHECK(out[kNetdevFields + 0] == 53225335);

  CHECK(flightrec::sampler::parse_netdev(
            flightrec::sampler::read_file(kFixtures / "proc-garbage/net/dev"), keys, out) ==
        SampleStatus::partial);
  CHECK(out[0] == kAbsent);  // "lo" line has no colon
  CHECK(out[kNetdevFields + 0] == 53225335);
  REQUIRE(keys.table().bound() == 3);  // eth1's name is readable, its values are not
  CHECK(keys.table().name(2) == "eth1");
  CHECK(out[2 * kNetdevFields] == kAbsent);
}

TEST_CASE("netdev source describes keyed network families and samples the live file",
          "[sources][netdev]") {
  const auto source = flightrec::sampler::make_netdev_source(ProcRoot{}, KeyFilter{}, 4);
  Schema schema;
  source->describe(schema);
  REQUIRE(schema.size() == 4 * kNetdevFields);
  CHECK(source->name() == "netdev");
  CHECK(schema[0].name == "network_receive_bytes_total");
  CHECK(schema[0].unit == "bytes");
  CHECK(schema[kNetdevFields - 1].name == "network_transmit_compressed_total");
  CHECK(schema[kNetdevFields].key_slot == 1);
  CHECK(schema[kNetdevFields].key_label == "device");
  CHECK(schema[0].source == "/proc/net/dev");
  std::vector<int64_t> out(schema.size());
  CHECK(source->sample(out) == SampleStatus::ok);
  CHECK(out[0] != kAbsent);  // lo comes first
}
