// Container frames in recordings (format version 3): written as `C` records among the blocks, read
// back each with its own set of containers, damage named; files written before them read as before.
#include <catch2/catch.hpp>
#include <sstream>

#include "flightrec/recording/detail/file_format.h"
#include "flightrec/recording/recording_file.h"
#include "temp_dir.h"
#include "test_recordings.h"

using namespace flightrec;
using namespace flightrec::recording;
using namespace flightrec::recording::testing;

namespace {

std::string read_error(const std::string& bytes) {
  const auto result = read_recording(as_span(bytes));
  return result ? std::string() : result.error();
}

std::string known_with_containers() {
  return to_bytes(known_metadata(), known_blocks(), true, known_process_blocks(),
                  stored_container_frames(known_container_frames()));
}

}  // namespace

TEST_CASE("Container frames that come and go read back each with its own set",
          "[recording][containers]") {
  const auto result = read_recording(as_span(known_with_containers()));
  REQUIRE(result.ok());
  const auto expected = known_container_frames();
  CHECK(result->container_frames == expected);
  REQUIRE(result->container_frames.size() == 4);
  CHECK(result->container_frames[0].containers.size() == 1);
  CHECK(result->container_frames[1].containers.size() == 2);  // the second one appeared
  CHECK(result->container_frames[2].containers.size() == 2);
  CHECK(result->container_frames[3].containers.size() == 1);  // and is gone
  CHECK(result->container_frames[3].containers[0].id == std::string(64, 'a'));
  // The other tiers are untouched by the records between theirs.
  CHECK(result->blocks.size() == 1);
  CHECK(result->process_frames == known_process_frames());
}

TEST_CASE("The reader returns container frames in file order among the blocks",
          "[recording][containers]") {
  std::istringstream in(known_with_containers());
  RecordingReader reader(in);
  REQUIRE(reader.open());
  CHECK(reader.format_version() == 3);
  std::string kinds;
  while (const auto record = reader.next_record()) {
    kinds += record.block ? 'B' : record.process_block ? 'P' : 'C';
  }
  CHECK(reader.complete());
  // The known blocks and process frames start at the first container frame's time; the rest
  // of the container frames follow 100 ms apart.
  CHECK(kinds == "BPCCCC");

  std::istringstream again(known_with_containers());
  RecordingReader blocks_only(again);
  REQUIRE(blocks_only.open());
  size_t blocks = 0;
  while (blocks_only.next()) ++blocks;
  CHECK(blocks_only.complete());
  CHECK(blocks == 1);
}

TEST_CASE("A recording written before container frames reads as before",
          "[recording][containers]") {
  // Written by the version 2 writer (the known metadata, blocks and process frames).
  const auto result =
      read_recording(std::filesystem::path(FLIGHTREC_FIXTURES) / "recordings/known_v2.flightrec");
  REQUIRE(result.ok());
  CHECK(result->meta.host == "box");
  CHECK(result->blocks.size() == 1);
  CHECK(result->process_frames == known_process_frames());
  CHECK(result->container_frames.empty());

  SECTION("a container frame record is not part of version 2") {
    auto bytes = known_with_containers();
    bytes[8] = 2;
    CHECK_THAT(read_error(bytes), Catch::Matchers::StartsWith("unexpected record tag 67"));
  }
}

TEST_CASE("Reading names damaged container frame records", "[recording][containers]") {
  const auto meta = known_metadata();
  const auto head = to_bytes(meta, {}, false);
  const auto frames = stored_container_frames(known_container_frames());
  const auto good = to_bytes(meta, {}, true, {}, frames);
  REQUIRE(read_error(good).empty());

  SECTION("a flipped byte names the frame and its offset") {
    auto bytes = good;
    const size_t second_at = head.size() + 9 + frames[0]->bytes.size();
    bytes[second_at + 9 + 30] ^= 0x04;
    CHECK(read_error(bytes) == "container frame 1 at offset " + std::to_string(second_at) +
                                   ": container frame: CRC mismatch (the frame is corrupt)");
  }
  SECTION("a record whose length does not match its frame") {
    auto bytes = good;
    bytes[head.size() + 1] = static_cast<char>(bytes[head.size() + 1] - 1);
    CHECK_THAT(read_error(bytes),
               Catch::Matchers::StartsWith("container frame 0 at offset " +
                                           std::to_string(head.size()) + ": container frame:"));
  }
  SECTION("a trailer that miscounts container frames") {
    const auto record_size = 9 + frames[0]->bytes.size();
    const auto bytes = head + good.substr(head.size() + record_size);
    CHECK_THAT(read_error(bytes),
               Catch::Matchers::Contains("it counts 4 container frames but the file holds 3"));
  }
  SECTION("a cut inside a container frame record, and one before the trailer") {
    CHECK_THAT(read_error(good.substr(0, head.size() + 20)),
               Catch::Matchers::StartsWith("torn: the file ends inside container frame 0"));
    CHECK_THAT(read_error(good.substr(0, good.size() - detail::kTrailerSizeV3)),
               Catch::Matchers::StartsWith("torn: no trailer after block 0 and container frame 4"));
  }
}

TEST_CASE("write_recording_atomically writes container frames too", "[recording][containers]") {
  const flightrec::testing::TempDir dir;
  const auto path = dir.file("containers.fltrec");
  REQUIRE(write_recording_atomically(path, known_metadata(), known_blocks(), {},
                                     stored_container_frames(known_container_frames()))
              .ok());
  const auto result = read_recording(path);
  REQUIRE(result.ok());
  CHECK(result->container_frames == known_container_frames());
}
