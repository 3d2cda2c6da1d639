#include "flightrec/container/cgroups/io_files.h"

#include <catch2/catch.hpp>
#include <string>

#include "temp_dir.h"

using namespace flightrec::container;
using flightrec::testing::fixture_path;
using flightrec::testing::read_file;

TEST_CASE("parse_io_stat reads each device, skipping iocost's keys", "[container][io]") {
  const auto io = parse_io_stat(read_file(
      fixture_path("cgroup/v2-systemd-docker/system.slice/"
                   "docker-3f9c1e0b7d2a4c5e8f6a1b2c3d4e5f60718293a4b5c6d7e8f9a0b1c2d3e4f5a6.scope/"
                   "io.stat")));
  REQUIRE(io.ok());
  REQUIRE(io->count == 2);
  CHECK(io->dropped == 0);
  CHECK(io->devices[0] == IoDevice{8, 0, 1459200, 314773504, 192, 353, 0, 0});
  CHECK(io->devices[1] == IoDevice{253, 1, 40960, 0, 10, 0, 0, 0});
}

TEST_CASE("parse_io_stat reads an empty file as no devices", "[container][io]") {
  const auto io = parse_io_stat("");
  REQUIRE(io.ok());
  CHECK(io->count == 0);
}

TEST_CASE("parse_io_stat keeps a fixed number of devices and counts the rest", "[container][io]") {
  std::string text;
  for (size_t minor = 0; minor < kMaxIoDevices + 3; ++minor) {
    text += "7:" + std::to_string(minor) + " rbytes=" + std::to_string(minor) +
            " wbytes=0 rios=1 wios=0 dbytes=0 dios=0\n";
  }
  const auto io = parse_io_stat(text);
  REQUIRE(io.ok());
  CHECK(io->count == kMaxIoDevices);
  CHECK(io->dropped == 3);
  CHECK(io->devices[kMaxIoDevices - 1].read_bytes == int64_t(kMaxIoDevices - 1));
}

TEST_CASE("parse_io_stat names a line with a bad device or count", "[container][io]") {
  const auto device = parse_io_stat("8:0 rbytes=1\nsda rbytes=2\n");
  REQUIRE_FALSE(device.ok());
  CHECK(device.error() == "line 2 (\"sda rbytes=2\"): does not start with <major>:<minor>");
  const auto count = parse_io_stat("8:0 rbytes=1x\n");
  REQUIRE_FALSE(count.ok());
  CHECK(count.error().ends_with("a byte or operation count is not a whole count"));
  CHECK_FALSE(parse_io_stat("8: rbytes=1\n").ok());
  CHECK_FALSE(parse_io_stat("99999999999:0 rbytes=1\n").ok());
}

TEST_CASE("parse_blkio_throttle merges v1's bytes and operations by device", "[container][io]") {
  // Captured on this project's CI machine kind (kernel 6.18) from a cgroup with a blkio rule.
  const std::string dir =
      "cgroup/v1-hybrid-cgroupfs/blkio/docker/"
      "3f9c1e0b7d2a4c5e8f6a1b2c3d4e5f60718293a4b5c6d7e8f9a0b1c2d3e4f5a6/";
  const auto io = parse_blkio_throttle(
      read_file(fixture_path(dir + "blkio.throttle.io_service_bytes_recursive")),
      read_file(fixture_path(dir + "blkio.throttle.io_serviced_recursive")));
  REQUIRE(io.ok());
  REQUIRE(io->count == 1);
  CHECK(io->devices[0] == IoDevice{254, 0, 25288704, 692224, 51, 170, 0, 0});
}

TEST_CASE("parse_blkio_throttle reads a cgroup without I/O as no devices", "[container][io]") {
  const auto io = parse_blkio_throttle("Total 0\n", "Total 0\n");
  REQUIRE(io.ok());
  CHECK(io->count == 0);
  const auto no_ops_file = parse_blkio_throttle("8:0 Read 4096\n8:0 Write 0\nTotal 4096\n", "");
  REQUIRE(no_ops_file.ok());
  CHECK(no_ops_file->devices[0].read_bytes == 4096);
  CHECK(no_ops_file->devices[0].read_ios == kAbsent);
}

TEST_CASE("parse_blkio_throttle names the file and line at fault", "[container][io]") {
  const auto bytes = parse_blkio_throttle("8:0 Read 1\n8:0 Fetch 2\n", "");
  REQUIRE_FALSE(bytes.ok());
  CHECK(bytes.error() == "io_service_bytes line 2 (\"8:0 Fetch 2\"): names no blkio operation");
  const auto ops = parse_blkio_throttle("", "8:0 Read\n");
  REQUIRE_FALSE(ops.ok());
  CHECK(ops.error() ==
        "io_serviced line 1 (\"8:0 Read\"): is not \"<major>:<minor> <operation> <count>\"");
  CHECK_FALSE(parse_blkio_throttle("Total x\n", "").ok());
}

TEST_CASE("parse_blkio_throttle counts each device past the table once", "[container][io]") {
  std::string text;
  for (size_t minor = 0; minor < kMaxIoDevices + 2; ++minor) {
    for (const char* op : {"Read", "Write", "Sync", "Async", "Discard", "Total"}) {
      text += "7:" + std::to_string(minor) + " " + op + " 512\n";
    }
  }
  const auto io = parse_blkio_throttle(text + "Total 1\n", text);
  REQUIRE(io.ok());
  CHECK(io->count == kMaxIoDevices);
  CHECK(io->dropped == 2);
}
