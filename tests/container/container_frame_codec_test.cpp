// The container frame's byte coding: what is encoded decodes equal, and damaged or lying bytes are
// refused with an error naming what was wrong.
#include "flightrec/container/frame/container_frame_codec.h"

#include <zlib.h>

#include <catch2/catch.hpp>
#include <string>

#include "container_frames.h"

using namespace flightrec::container;

namespace {

constexpr int64_t kStart = 1'764'000'000'000'000'000;

// Rewrites the CRC (zlib's CRC-32 of the payload, last) after a payload edit, so the checks behind
// it are reached.
std::string with_crc_fixed(std::string bytes) {
  const auto* payload = reinterpret_cast<const Bytef*>(bytes.data() + 12);
  const auto crc = static_cast<uint32_t>(
      crc32(crc32(0L, Z_NULL, 0), payload, static_cast<uInt>(bytes.size() - 16)));
  for (size_t i = 0; i < 4; ++i) {
    bytes[bytes.size() - 4 + i] = static_cast<char>(crc >> (8 * i) & 0xff);
  }
  return bytes;
}

}  // namespace

TEST_CASE("shouldDecodeWhatItEncoded", "[container][frame_codec]") {
  for (const ContainerFrame& frame : flightrec::test::sample_container_frames(kStart)) {
    const std::string bytes = encode_container_frame(frame);
    const auto decoded = decode_container_frame(bytes);
    REQUIRE(decoded);
    CHECK(*decoded == frame);
  }
  // An empty frame, and the markers kAbsent and kUnlimited in every value.
  ContainerFrame empty;
  empty.time_unix_ns = -5;
  const auto decoded = decode_container_frame(encode_container_frame(empty));
  REQUIRE(decoded);
  CHECK(*decoded == empty);
}

TEST_CASE("shouldKeepAContainerRowSmall", "[container][frame_codec]") {
  // What the ring's byte bound buys: a named Kubernetes container with every file read is a few
  // hundred bytes per frame, most of it its names and path.
  const auto frames = flightrec::test::sample_container_frames(kStart);
  const size_t one = encode_container_frame(frames[0]).size();
  const size_t two = encode_container_frame(frames[1]).size();
  CHECK(two - one < 400);
}

TEST_CASE("shouldRefuseDamagedFrames", "[container][frame_codec]") {
  const std::string good =
      encode_container_frame(flightrec::test::sample_container_frames(kStart)[1]);
  CHECK(decode_container_frame("").error() ==
        "container frame: 0 bytes, shorter than its 16-byte header and CRC");
  CHECK(decode_container_frame("XXXX" + good.substr(4)).error() ==
        "container frame: no CFRM magic");
  std::string version = good;
  version[4] = 2;
  CHECK(decode_container_frame(version).error() ==
        "container frame: version 2 (this flightrec reads 1)");
  CHECK(decode_container_frame(good.substr(0, good.size() - 1))
            .error()
            .starts_with("container frame: payload length"));
  std::string flipped = good;
  flipped[40] ^= 0x01;
  CHECK(decode_container_frame(flipped).error() ==
        "container frame: CRC mismatch (the frame is corrupt)");
  // Every flipped byte is caught; none crashes.
  for (size_t i = 0; i < good.size(); ++i) {
    std::string damaged = good;
    damaged[i] ^= 0x20;
    CHECK_FALSE(decode_container_frame(damaged));
  }
}

TEST_CASE("shouldNameWhatIsWrongBehindAGoodCrc", "[container][frame_codec]") {
  auto frame = flightrec::test::sample_container_frames(kStart)[1];
  SECTION("rows out of path order") {
    std::swap(frame.containers[0], frame.containers[1]);
    const auto decoded = decode_container_frame(encode_container_frame(frame));
    REQUIRE_FALSE(decoded);
    CHECK(decoded.error().find("row 1: path") != std::string::npos);
  }
  SECTION("a fast read of a row the frame does not have") {
    frame.fast_reads[0].row = 7;
    CHECK(decode_container_frame(encode_container_frame(frame)).error() ==
          "container frame: fast read 0: row 7 is not one of the frame's 2");
  }
  SECTION("an unknown runtime") {
    std::string bytes = encode_container_frame(frame);
    // The first row's runtime byte follows the frame header fields and its two strings.
    const size_t runtime_at = bytes.find(std::string(64, 'a')) + 64 + 1 + 64;
    REQUIRE(bytes[runtime_at] == static_cast<char>(Runtime::cri));
    bytes[runtime_at] = 9;
    CHECK(decode_container_frame(with_crc_fixed(bytes)).error() ==
          "container frame: row 0: runtime 9 is not known");
  }
  SECTION("a count larger than the bytes") {
    frame.containers.clear();
    frame.fast_reads.clear();
    frame.episodes.clear();
    std::string bytes = encode_container_frame(frame);
    // The payload ends with three zero counts; make the episodes' one huge.
    bytes[bytes.size() - 5] = 0x7f;
    CHECK(decode_container_frame(with_crc_fixed(bytes)).error() ==
          "container frame: episode count 127 runs past the frame");
  }
}

TEST_CASE("shouldFindARowByItsCgroupId", "[container][frame_codec]") {
  const auto frame = flightrec::test::sample_container_frames(kStart)[1];
  REQUIRE(find_by_cgroup_id(frame, 1002) != nullptr);
  CHECK(find_by_cgroup_id(frame, 1002)->id == std::string(64, 'b'));
  CHECK(find_by_cgroup_id(frame, 42) == nullptr);
  CHECK(find_by_cgroup_id(frame, 0) == nullptr);
}
