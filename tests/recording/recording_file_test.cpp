#include "flightrec/recording/recording_file.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <random>

#include "test_recordings.h"

using namespace flightrec;
using namespace flightrec::recording;
using namespace flightrec::recording::testing;

namespace {

BlockList random_blocks(uint64_t seed, uint32_t series = 7, size_t frames = 1000) {
  return blocks_of(store::testing::realistic_recording(frames, series, seed), 256);
}

std::string read_error(const std::string& bytes) { return read_recording(as_span(bytes)).error; }

}  // namespace

TEST_CASE("Recording round-trips metadata and every block's values", "[recording]") {
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    const auto rec = store::testing::realistic_recording(1000, 7, seed);
    const auto blocks = blocks_of(rec, 256);
    const auto meta = metadata_for(7);
    const auto result = read_recording(as_span(to_bytes(meta, blocks)));
    REQUIRE(result.ok());
    CHECK(result.recording.meta == meta);
    REQUIRE(result.recording.blocks.size() == blocks.size());
    size_t frame = 0;
    std::vector<int64_t> column;
    for (const auto& block : result.recording.blocks) {
      for (uint32_t s = 0; s < 7; ++s) {
        block->decode_series(s, column);
        for (size_t row = 0; row < column.size(); ++row) {
          REQUIRE(column[row] == rec.at(frame + row, s));
        }
      }
      frame += block->frames();
    }
    CHECK(frame == rec.headers.size());
  }
}

TEST_CASE("Recording with no blocks is complete and empty", "[recording]") {
  const auto result = read_recording(as_span(to_bytes(metadata_for(3), {})));
  REQUIRE(result.ok());
  CHECK(result.recording.blocks.empty());
  CHECK(result.recording.meta.series.size() == 3);
}

TEST_CASE("write_recording_atomically leaves only the complete file behind", "[recording]") {
  const auto dir = std::filesystem::temp_directory_path() / "flightrec_recording_test";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const auto blocks = random_blocks(9);
  const auto path = dir / "incident.fltrec";
  REQUIRE(write_recording_atomically(path, metadata_for(7), blocks).ok());
  const auto result = read_recording(path);
  REQUIRE(result.ok());
  CHECK(result.recording.blocks.size() == blocks.size());
  CHECK(std::distance(std::filesystem::directory_iterator(dir), {}) == 1);
  CHECK((std::filesystem::status(path).permissions() & std::filesystem::perms::group_read) ==
        std::filesystem::perms::none);
  const auto missing =
      write_recording_atomically(dir / "no" / "such.fltrec", metadata_for(7), blocks);
  CHECK_THAT(missing.error, Catch::Matchers::Contains("no/such.fltrec"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("Reading names the file when it cannot be opened", "[recording]") {
  CHECK_THAT(read_recording(std::filesystem::path("/nonexistent/x.fltrec")).error,
             Catch::Matchers::StartsWith("/nonexistent/x.fltrec: cannot open"));
}

TEST_CASE("RecordingWriter refuses a block that does not match the metadata", "[recording]") {
  const auto blocks = random_blocks(2, 4);
  RecordingWriter writer([](std::string_view) { return true; }, metadata_for(5));
  CHECK_THROWS_AS(writer.add(*blocks[0]), std::invalid_argument);
}

TEST_CASE("Reading reports each kind of damage with its own error", "[recording]") {
  const auto good = to_bytes(metadata_for(7), random_blocks(3));
  REQUIRE(read_error(good).empty());

  SECTION("empty input") { CHECK_THAT(read_error(""), Catch::Matchers::Contains("empty")); }
  SECTION("another file type") {
    CHECK_THAT(read_error("{\"json\": true}"),
               Catch::Matchers::StartsWith("not a flightrec recording"));
  }
  SECTION("unknown version") {
    auto bytes = good;
    bytes[8] = 2;
    CHECK(read_error(bytes) ==
          "unsupported recording format version 2 (this flightrec reads version 1)");
  }
  SECTION("metadata byte flipped") {
    auto bytes = good;
    bytes[20] ^= 0x01;
    CHECK_THAT(read_error(bytes), Catch::Matchers::StartsWith("metadata at offset 12: CRC"));
  }
  SECTION("block byte flipped names the block and its offset") {
    const auto meta_end = to_bytes(metadata_for(7), {}, false).size();
    const auto first_block_size = random_blocks(3)[0]->bytes().size();
    const size_t second_block_at = meta_end + 9 + first_block_size;
    auto bytes = good;
    bytes[second_block_at + 9 + 40] ^= 0x10;
    CHECK_THAT(read_error(bytes),
               Catch::Matchers::StartsWith("block 1 at offset " + std::to_string(second_block_at)));
  }
  SECTION("trailer missing at a block boundary") {
    const auto torn = good.substr(0, good.size() - 21);
    CHECK_THAT(read_error(torn), Catch::Matchers::StartsWith("torn: no trailer after block 4"));
  }
  SECTION("trailer corrupt") {
    auto bytes = good;
    bytes[bytes.size() - 10] ^= 0x01;
    CHECK_THAT(read_error(bytes), Catch::Matchers::Contains("trailer at offset"));
  }
  SECTION("bytes after the trailer") {
    CHECK_THAT(read_error(good + "x"), Catch::Matchers::StartsWith("unexpected bytes after"));
  }
}

TEST_CASE("Every cut of a recording is reported, never read as complete", "[recording]") {
  const auto good = to_bytes(metadata_for(3), random_blocks(4, 3, 600));
  for (size_t cut = 0; cut < good.size(); ++cut) {
    const auto result = read_recording(as_span(good.substr(0, cut)));
    INFO("cut at " << cut);
    REQUIRE_FALSE(result.ok());
    REQUIRE(result.recording.blocks.empty());
  }
}

TEST_CASE("Every single flipped byte of a recording is detected", "[recording]") {
  const auto good = to_bytes(metadata_for(3), random_blocks(5, 3, 600));
  std::mt19937_64 rng(11);
  for (size_t at = 0; at < good.size(); ++at) {
    auto bytes = good;
    bytes[at] = static_cast<char>(bytes[at] ^ static_cast<int>(1 + rng() % 255));
    INFO("flipped byte " << at);
    REQUIRE_FALSE(read_recording(as_span(bytes)).ok());
  }
}
