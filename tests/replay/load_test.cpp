// Loading recordings from files: good ones replay, damaged ones give one clear line and exit 1.
#include <zlib.h>

#include <catch2/catch.hpp>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "container_fixture.h"
#include "flightrec/container/frame/container_frame_codec.h"
#include "flightrec/recording/recording_file.h"
#include "flightrec/replay/run.h"
#include "flightrec/store/process_block.h"
#include "replay_fixture.h"
#include "temp_dir.h"

using namespace flightrec::replay;
using namespace flightrec::replay::testing;
namespace fs = std::filesystem;
using flightrec::testing::TempDir;

namespace {

fs::path write_fixture(const fs::path& path, const ReplayData& data = fixture()) {
  const std::vector<std::shared_ptr<const flightrec::store::ProcessBlock>> process_blocks{
      flightrec::store::ProcessBlock::encode(std::span(data.process_frames))};
  flightrec::store::ContainerFrameList container_frames;
  for (const auto& frame : data.container_frames) {
    container_frames.push_back(std::make_shared<const flightrec::store::StoredContainerFrame>(
        flightrec::store::StoredContainerFrame{
            frame.time_unix_ns, flightrec::container::encode_container_frame(frame)}));
  }
  const auto written = flightrec::recording::write_recording_atomically(
      path, data.meta, data.blocks, process_blocks, container_frames);
  REQUIRE(written.ok());
  return path;
}

std::string read_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;  // rdbuf, not istreambuf_iterator: g++ 12 -O3 warns inside it
  text << in.rdbuf();
  return text.str();
}

void write_bytes(const fs::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

int batch(const std::string& source, std::string& out, std::string& err,
          std::vector<std::string_view> extra = {}) {
  std::vector<std::string_view> args{source, "--batch"};
  args.insert(args.end(), extra.begin(), extra.end());
  std::ostringstream o;
  std::ostringstream e;
  const int status = replay_command(args, o, e);
  out = o.str();
  err = e.str();
  return status;
}

}  // namespace

TEST_CASE("aRecordingFileReplaysInBatchMode", "[replay][load]") {
  TempDir dir;
  const auto file = write_fixture(dir.path() / "fixture.fltrec");
  std::string out;
  std::string err;
  REQUIRE(batch(file.string(), out, err, {"--at", "+1s"}) == 0);
  CHECK(err.empty());
  CHECK_THAT(out, Catch::StartsWith("time      2025-11-30T05:00:01.000Z (+1.000s of 3s"));
  CHECK_THAT(out, Catch::Contains("trigger   memory_available_bytes < 2e9"));
  // The process frames made it through the file.
  CHECK_THAT(out, Catch::Contains("[Processes] 7 rows"));
}

TEST_CASE("damagedRecordingsGiveOneLineAndExitOne", "[replay][load]") {
  TempDir dir;
  const auto good = write_fixture(dir.path() / "good.fltrec");
  const std::string bytes = read_bytes(good);
  struct Damage {
    std::string name;
    std::string bytes;
    std::string expected;
  };
  std::string wrong_version = bytes;
  wrong_version[8] = 9;
  std::string flipped = bytes;
  flipped[bytes.size() - 40] = static_cast<char>(flipped[bytes.size() - 40] ^ 0x5a);  // last block
  const std::vector<Damage> damages{
      {"empty", "", "the file is empty"},
      {"text", "hello, world\n", "no FLTREC magic"},
      {"version", wrong_version, "unsupported recording format version 9"},
      {"truncated", bytes.substr(0, bytes.size() - 30), "torn"},
      {"flipped", flipped, "block"},
  };
  for (const auto& damage : damages) {
    DYNAMIC_SECTION(damage.name) {
      const fs::path path = dir.path() / (damage.name + ".fltrec");
      write_bytes(path, damage.bytes);
      std::string out;
      std::string err;
      CHECK(batch(path.string(), out, err) == 1);
      CHECK(out.empty());
      CHECK_THAT(err, Catch::StartsWith("flightrec replay: " + path.string() + ": "));
      CHECK_THAT(err, Catch::Contains(damage.expected));
      CHECK(std::count(err.begin(), err.end(), '\n') == 1);
    }
  }
}

// A process block whose CRC checks out but whose frames do not decode is found when the cursor
// reaches it (replay checks only the framing of blocks it has not shown): the rest of the screen
// prints, then one line names the file and the damage, and the status is 1.
TEST_CASE("aDamagedProcessBlockIsNamedWhenTheCursorReachesIt", "[replay][load]") {
  TempDir dir;
  const ReplayData data = fixture();
  auto block = flightrec::store::ProcessBlock::encode(std::span(data.process_frames));
  std::vector<uint8_t> bytes(block->bytes().begin(), block->bytes().end());
  constexpr size_t kSocketRowsAt = 40;  // docs/STORAGE.md, "Process blocks"
  bytes[kSocketRowsAt] = static_cast<uint8_t>(bytes[kSocketRowsAt] + 1);
  const auto crc =
      static_cast<uint32_t>(crc32(0, bytes.data(), static_cast<uInt>(bytes.size() - 4)));
  std::memcpy(bytes.data() + bytes.size() - 4, &crc, 4);
  const auto damaged =
      flightrec::store::ProcessBlock::parse(bytes, flightrec::store::ProcessBlockCheck::framing);
  REQUIRE(damaged.ok());
  const fs::path path = dir.path() / "damaged.fltrec";
  REQUIRE(flightrec::recording::write_recording_atomically(path, data.meta, data.blocks,
                                                           std::vector{damaged->block})
              .ok());
  std::string out;
  std::string err;
  CHECK(batch(path.string(), out, err) == 1);
  CHECK_THAT(out, Catch::Contains("[Processes] 0 rows"));
  CHECK(err == "flightrec replay: " + path.string() +
                   ": the process frames from 2025-11-30T05:00:00.000Z to "
                   "2025-11-30T05:00:03.000Z are damaged (process block: the header counts 94 "
                   "processes and 66 sockets, the frames hold 94 and 65)\n");
}

TEST_CASE("aMissingFileOrADirectorySaysWhatIsWrong", "[replay][load]") {
  TempDir dir;
  std::string out;
  std::string err;
  const std::string missing = (dir.path() / "nope.flightrec").string();
  CHECK(batch(missing, out, err) == 1);
  CHECK(err == "flightrec replay: " + missing + ": cannot open: No such file or directory\n");
  CHECK(batch(dir.path().string(), out, err) == 1);
  CHECK(err ==
        "flightrec replay: " + dir.path().string() + ": is a directory, not a recording file\n");
}

TEST_CASE("timesOutsideTheRecordingAreClampedWithANote", "[replay][load]") {
  TempDir dir;
  const auto file = write_fixture(dir.path() / "fixture.fltrec");
  std::string out;
  std::string err;
  REQUIRE(batch(file.string(), out, err, {"--at", "1700000000"}) == 0);
  CHECK_THAT(out, Catch::StartsWith("time      2025-11-30T05:00:00.000Z (+0.000s"));
  CHECK(err ==
        "flightrec replay: note: --at 1700000000 (2023-11-14T22:13:20.000Z) is before the "
        "recording's start 2025-11-30T05:00:00.000Z: showing its start\n");
  REQUIRE(batch(file.string(), out, err, {"--at", "+1m"}) == 0);
  CHECK_THAT(out, Catch::StartsWith("time      2025-11-30T05:00:03.000Z (+3.000s"));
  CHECK_THAT(err, Catch::Contains("--at +1m (2025-11-30T05:01:00.000Z) is after"));
  REQUIRE(batch(file.string(), out, err, {"--at", "+1s"}) == 0);
  CHECK(err.empty());
}

TEST_CASE("badFlagValuesAreUsageErrors", "[replay][load]") {
  TempDir dir;
  std::string out;
  std::string err;
  const auto file = write_fixture(dir.path() / "fixture.fltrec");
  CHECK(batch(file.string(), out, err, {"--at", "yesterday"}) == 2);
  CHECK_THAT(err, Catch::Contains("--at: time: \"yesterday\" is not a time"));
  CHECK(batch(file.string(), out, err, {"--sort", "XMIT_PK"}) == 2);
  CHECK_THAT(err, Catch::Contains("the processes tab has no column \"XMIT_PK\" (columns: PID, "));
  CHECK(batch(file.string(), out, err, {"--tab", "nowhere"}) == 2);
}

TEST_CASE("theInteractiveViewRefusesToRunWithoutATerminal", "[replay][load]") {
  std::ostringstream out;
  std::ostringstream err;
  ReplayOptions options;
  options.source = "whatever.fltrec";
  // The test runner's stdout is a pipe or file under CTest; skip when run by hand in a terminal.
  if (::isatty(STDOUT_FILENO) != 0 && ::isatty(STDIN_FILENO) != 0) return;
  CHECK(run_replay(options, out, err) == 1);
  CHECK_THAT(err.str(), Catch::Contains("needs a terminal (use --batch"));
}

TEST_CASE("theCommittedFixtureFileMatchesTheFixture", "[replay][load]") {
  // tests/replay/data/leak.fltrec, oom.fltrec and containers.fltrec are what the e2e test
  // replays; FLIGHTREC_UPDATE_GOLDEN=1 rewrites them from the in-memory fixtures.
  const auto [name, expected] = GENERATE(table<const char*, ReplayData (*)()>(
      {{"leak.fltrec", &fixture}, {"oom.fltrec", &oom_fixture}, {"containers.fltrec", [] {
                                                                   return container_fixture();
                                                                 }}}));
  const fs::path committed = fs::path(FLIGHTREC_REPLAY_TEST_DIR) / "data" / name;
  if (const char* update = std::getenv("FLIGHTREC_UPDATE_GOLDEN");
      update && update == std::string("1")) {
    write_fixture(committed, expected());
  }
  const auto read = flightrec::recording::read_recording(committed);
  REQUIRE(read.ok());
  const ReplayData data = expected();
  CHECK(read->meta == data.meta);
  CHECK(read->process_frames == data.process_frames);
  CHECK(read->container_frames == data.container_frames);
  REQUIRE(read->blocks.size() == data.blocks.size());
  for (size_t i = 0; i < data.blocks.size(); ++i) {
    const auto a = read->blocks[i]->bytes();
    const auto b = data.blocks[i]->bytes();
    CHECK(std::equal(a.begin(), a.end(), b.begin(), b.end()));
  }
}
