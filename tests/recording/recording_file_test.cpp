#include "flightrec/recording/recording_file.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <random>
#include <sstream>

#include "flightrec/recording/detail/byte_io.h"
#include "flightrec/recording/detail/file_format.h"
#include "temp_dir.h"
#include "test_recordings.h"

using namespace flightrec;
using namespace flightrec::recording;
using namespace flightrec::recording::testing;

namespace {

BlockList random_blocks(uint64_t seed, uint32_t series = 7, size_t frames = 1000) {
  return blocks_of(store::testing::realistic_recording(frames, series, seed), 256);
}

std::string read_error(const std::string& bytes) {
  const auto result = read_recording(as_span(bytes));
  return result ? std::string() : result.error();
}

std::vector<ProcessFrame> process_frames(uint64_t seed, size_t frames = 20) {
  return store::testing::synthetic_process_frames(
      {.processes = 30, .frames = frames, .changes_per_frame = 5, .sockets = 3, .seed = seed});
}

// The same recording as the version 1 writer wrote it: version 1 in the header and the 21-byte
// trailer without process block and container frame counts (only for recordings without either).
std::string as_version_1(std::string bytes) {
  using namespace recording::detail;
  const auto blocks = get_le<uint64_t>(bytes, bytes.size() - kTrailerSizeV3 + 1);
  bytes[8] = 1;
  bytes.resize(bytes.size() - kTrailerSizeV3);
  std::string trailer(1, 'E');
  put_le(trailer, blocks);
  put_le(trailer, static_cast<uint64_t>(bytes.size() + 21));
  put_le(trailer, crc32_of(trailer));
  return bytes + trailer;
}

}  // namespace

TEST_CASE("Recording round-trips metadata and every block's values", "[recording]") {
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    const auto rec = store::testing::realistic_recording(1000, 7, seed);
    const auto blocks = blocks_of(rec, 256);
    const auto meta = metadata_for(7);
    const auto result = read_recording(as_span(to_bytes(meta, blocks)));
    REQUIRE(result.ok());
    CHECK(result->meta == meta);
    REQUIRE(result->blocks.size() == blocks.size());
    size_t frame = 0;
    std::vector<int64_t> column;
    for (const auto& block : result->blocks) {
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
  CHECK(result->blocks.empty());
  CHECK(result->meta.series.size() == 3);
}

TEST_CASE("write_recording_atomically leaves only the complete file behind", "[recording]") {
  const flightrec::testing::TempDir scratch;
  const auto& dir = scratch.path();
  const auto blocks = random_blocks(9);
  const auto path = dir / "incident.fltrec";
  REQUIRE(write_recording_atomically(path, metadata_for(7), blocks).ok());
  const auto result = read_recording(path);
  REQUIRE(result.ok());
  CHECK(result->blocks.size() == blocks.size());
  CHECK(std::distance(std::filesystem::directory_iterator(dir), {}) == 1);
  CHECK((std::filesystem::status(path).permissions() & std::filesystem::perms::group_read) ==
        std::filesystem::perms::none);
  const auto missing =
      write_recording_atomically(dir / "no" / "such.fltrec", metadata_for(7), blocks);
  CHECK_THAT(missing.error(), Catch::Matchers::Contains("no/such.fltrec"));
}

TEST_CASE("Reading names the file when it cannot be opened", "[recording]") {
  CHECK_THAT(
      read_recording(std::filesystem::path("/nonexistent/x.fltrec")).error(),
      Catch::Matchers::StartsWith("/nonexistent/x.fltrec: cannot open: No such file or directory"));
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
    bytes[8] = 4;
    CHECK(read_error(bytes) ==
          "unsupported recording format version 4 (this flightrec reads versions 1 to 3)");
    bytes[8] = 0;
    CHECK_THAT(read_error(bytes),
               Catch::Matchers::StartsWith("unsupported recording format version 0"));
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
  SECTION("a block's magic overwritten: one offset, the block's in the file") {
    const auto meta_end = to_bytes(metadata_for(7), {}, false).size();
    const auto first_block_size = random_blocks(3)[0]->bytes().size();
    const size_t second_block_at = meta_end + 9 + first_block_size;
    auto bytes = good;
    bytes[second_block_at + 9] ^= 0x10;  // after the record's tag and length
    CHECK(read_error(bytes) == "block 1 at offset " + std::to_string(second_block_at) +
                                   ": block: no FRBK magic at the start of the block");
  }
  SECTION("trailer missing at a block boundary") {
    const auto torn = good.substr(0, good.size() - detail::kTrailerSizeV3);
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
  const auto good = to_bytes(
      metadata_for(3), random_blocks(4, 3, 600), true, process_blocks_of(process_frames(4, 4), 2),
      stored_container_frames(test::sample_container_frames(kKnownStartNs, 2)));
  for (size_t cut = 0; cut < good.size(); ++cut) {
    const auto result = read_recording(as_span(good.substr(0, cut)));
    INFO("cut at " << cut);
    // A failed read holds no recording at all: no blocks or frames of a torn file to half-use.
    REQUIRE_FALSE(result.ok());
    // Said once: a record that names its own offset is not followed by a second "at offset".
    const std::string& error = result.error();
    const size_t first = error.find("at offset");
    CHECK((first == std::string::npos || error.find("at offset", first + 1) == std::string::npos));
  }
}

TEST_CASE("A block cut short names its offset and where the file ends", "[recording]") {
  const auto meta_end = to_bytes(metadata_for(7), {}, false).size();
  const auto first_block_size = random_blocks(3)[0]->bytes().size();
  const size_t second_block_at = meta_end + 9 + first_block_size;
  const auto good = to_bytes(metadata_for(7), random_blocks(3));
  const size_t cut = second_block_at + 9 + 10;  // 10 bytes into the second block's content
  CHECK(read_error(good.substr(0, cut)) == "torn: the file ends inside block 1 at offset " +
                                               std::to_string(second_block_at) + " (after " +
                                               std::to_string(cut) + " bytes)");
}

TEST_CASE("Every single flipped byte of a recording is detected", "[recording]") {
  const auto good = to_bytes(
      metadata_for(3), random_blocks(5, 3, 600), true, process_blocks_of(process_frames(5, 4), 2),
      stored_container_frames(test::sample_container_frames(kKnownStartNs, 2)));
  std::mt19937_64 rng(11);
  for (size_t at = 0; at < good.size(); ++at) {
    auto bytes = good;
    bytes[at] = static_cast<char>(bytes[at] ^ static_cast<int>(1 + rng() % 255));
    INFO("flipped byte " << at);
    REQUIRE_FALSE(read_recording(as_span(bytes)).ok());
  }
}

TEST_CASE("Recording round-trips process blocks interleaved with system blocks", "[recording]") {
  const auto frames = process_frames(6, 20);
  const auto process_blocks = process_blocks_of(frames, 8);
  const auto blocks = random_blocks(6);
  const auto bytes = to_bytes(metadata_for(7), blocks, true, process_blocks);
  const auto result = read_recording(as_span(bytes));
  REQUIRE(result.ok());
  CHECK(result->blocks.size() == blocks.size());
  CHECK(result->process_frames == frames);

  SECTION("the reader returns records in file order; next() skips process blocks") {
    std::string text(bytes);
    std::istringstream in(text);
    RecordingReader reader(in);
    REQUIRE(reader.open());
    CHECK(reader.format_version() == 3);
    size_t system = 0;
    size_t process = 0;
    while (const auto record = reader.next_record()) {
      system += record.block ? 1u : 0u;
      process += record.process_block ? 1u : 0u;
    }
    CHECK(reader.complete());
    CHECK(system == blocks.size());
    CHECK(process == process_blocks.size());

    std::istringstream again(text);
    RecordingReader blocks_only(again);
    REQUIRE(blocks_only.open());
    size_t count = 0;
    while (blocks_only.next()) ++count;
    CHECK(blocks_only.complete());
    CHECK(count == blocks.size());
  }
}

TEST_CASE("Process frames come back in time order whatever the record order", "[recording]") {
  const auto frames = process_frames(7, 12);
  auto process_blocks = process_blocks_of(frames, 4);
  std::string out;
  RecordingWriter writer(
      [&out](std::string_view bytes) {
        out += bytes;
        return true;
      },
      metadata_for(2));
  for (auto it = process_blocks.rbegin(); it != process_blocks.rend(); ++it) {
    writer.add_process_block(**it);
  }
  writer.finish();
  CHECK(writer.process_blocks_written() == 3);
  const auto result = read_recording(as_span(out));
  REQUIRE(result.ok());
  CHECK(result->process_frames == frames);
}

TEST_CASE("Version 1 recordings are still read", "[recording]") {
  const auto blocks = random_blocks(8, 3, 300);
  const auto v1 = as_version_1(to_bytes(metadata_for(3), blocks));
  const auto result = read_recording(as_span(v1));
  REQUIRE(result.ok());
  CHECK(result->blocks.size() == blocks.size());
  CHECK(result->process_frames.empty());

  SECTION("a process block record is not part of version 1") {
    auto with_process = to_bytes(metadata_for(3), blocks, false, known_process_blocks());
    with_process[8] = 1;
    CHECK_THAT(read_error(with_process), Catch::Matchers::StartsWith("unexpected record tag 80"));
  }
  SECTION("cuts of a version 1 recording are reported") {
    CHECK_THAT(read_error(v1.substr(0, v1.size() - 21)),
               Catch::Matchers::StartsWith("torn: no trailer after block 2"));
    CHECK_THAT(read_error(v1.substr(0, v1.size() - 1)),
               Catch::Matchers::StartsWith("torn: the file ends inside the trailer"));
  }
}

TEST_CASE("Reading names damaged process records", "[recording]") {
  const auto meta = metadata_for(3);
  const auto head = to_bytes(meta, {}, false);
  const auto process = known_process_blocks();
  const auto good = to_bytes(meta, {}, true, process);
  REQUIRE(read_error(good).empty());

  SECTION("a flipped byte names the process block and its offset") {
    auto bytes = good;
    bytes[head.size() + 9 + 30] ^= 0x04;
    CHECK_THAT(read_error(bytes), Catch::Matchers::StartsWith("process block 0 at offset " +
                                                              std::to_string(head.size()) +
                                                              ": process block: CRC mismatch"));
  }
  SECTION("a trailer that miscounts process blocks") {
    // The file without its process record, but with the trailer of the file that had it.
    const auto record_size = 9 + process[0]->bytes().size();
    auto bytes = head + good.substr(head.size() + record_size);
    CHECK_THAT(read_error(bytes),
               Catch::Matchers::Contains("it counts 1 process blocks but the file holds 0"));
  }
  SECTION("a cut inside a process record") {
    CHECK_THAT(read_error(good.substr(0, head.size() + 20)),
               Catch::Matchers::StartsWith("torn: the file ends inside process block 0"));
    CHECK_THAT(read_error(good.substr(0, good.size() - detail::kTrailerSizeV3)),
               Catch::Matchers::StartsWith("torn: no trailer after block 0 and process block 1"));
  }
  SECTION("more process rows than the reader holds in memory") {
    const auto result = read_recording(as_span(good), 3);
    CHECK_THAT(result.error(),
               Catch::Matchers::StartsWith("process frames: 6 rows, more than the 3"));
    CHECK_FALSE(result.ok());
  }
}

TEST_CASE("write_recording_atomically writes process blocks too", "[recording]") {
  const flightrec::testing::TempDir dir;
  const auto path = dir.file("process.fltrec");
  REQUIRE(write_recording_atomically(path, known_metadata(), known_blocks(), known_process_blocks())
              .ok());
  const auto result = read_recording(path);
  REQUIRE(result.ok());
  CHECK(result->blocks.size() == 1);
  CHECK(result->process_frames == known_process_frames());
}

TEST_CASE("read_recording_blocks keeps process blocks as stored and still finds every flipped byte",
          "[recording]") {
  const auto frames = process_frames(8, 20);
  const auto process_blocks = process_blocks_of(frames, 8);
  const auto good = to_bytes(metadata_for(3), random_blocks(5, 3, 600), true, process_blocks);
  const auto read = read_recording_blocks(as_span(good));
  REQUIRE(read.ok());
  CHECK(read->process_frames.empty());
  REQUIRE(read->process_blocks.size() == process_blocks.size());
  std::vector<ProcessFrame> decoded;
  for (size_t i = 0; i < process_blocks.size(); ++i) {
    const auto a = read->process_blocks[i]->bytes();
    const auto b = process_blocks[i]->bytes();
    CHECK(std::equal(a.begin(), a.end(), b.begin(), b.end()));
    std::vector<ProcessFrame> block_frames;
    REQUIRE(read->process_blocks[i]->decode_checked(block_frames).ok());
    decoded.insert(decoded.end(), block_frames.begin(), block_frames.end());
  }
  CHECK(decoded == frames);
  // The frames are not decoded, but the CRCs are checked: no damage passes unseen.
  std::mt19937_64 rng(12);
  for (size_t at = 0; at < good.size(); ++at) {
    auto bytes = good;
    bytes[at] = static_cast<char>(bytes[at] ^ static_cast<int>(1 + rng() % 255));
    INFO("flipped byte " << at);
    REQUIRE_FALSE(read_recording_blocks(as_span(bytes)).ok());
  }
}
