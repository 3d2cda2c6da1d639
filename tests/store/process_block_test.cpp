#include "flightrec/store/process_block.h"

#include <zlib.h>

#include <catch2/catch.hpp>
#include <cstring>
#include <limits>
#include <random>

#include "process_frames.h"

using namespace flightrec;
using namespace flightrec::store;
using namespace flightrec::store::testing;

namespace {

// Header offsets from docs/STORAGE.md ("Process blocks").
constexpr size_t kSizeAt = 8;
constexpr size_t kPayloadSizeAt = 32;
constexpr size_t kHeaderBytes = 44;

std::vector<ProcessFrame> round_trip(const std::vector<ProcessFrame>& frames) {
  const auto block = ProcessBlock::encode(frames);
  const auto parsed = ProcessBlock::parse(block->bytes());
  REQUIRE(parsed.ok());
  std::vector<ProcessFrame> out;
  parsed->block->decode(out);
  return out;
}

std::vector<uint8_t> bytes_of(const ProcessBlock& block) {
  return {block.bytes().begin(), block.bytes().end()};
}

void put_u32(std::vector<uint8_t>& bytes, size_t at, uint32_t value) {
  std::memcpy(bytes.data() + at, &value, 4);
}

void fix_crc(std::vector<uint8_t>& bytes) {
  put_u32(bytes, bytes.size() - 4,
          static_cast<uint32_t>(crc32(0, bytes.data(), static_cast<uInt>(bytes.size() - 4))));
}

std::vector<uint8_t> inflate_payload(const std::vector<uint8_t>& block) {
  uint32_t size = 0;
  std::memcpy(&size, block.data() + kPayloadSizeAt, 4);
  std::vector<uint8_t> payload(size);
  uLongf produced = size;
  REQUIRE(uncompress(payload.data(), &produced, block.data() + kHeaderBytes,
                     block.size() - kHeaderBytes - 4) == Z_OK);
  return payload;
}

// A block whose payload is replaced (recompressed, sizes and CRC fixed): reaches the checks that a
// valid CRC would otherwise hide.
std::vector<uint8_t> with_payload(const std::vector<uint8_t>& block,
                                  const std::vector<uint8_t>& payload) {
  std::vector<uint8_t> out(block.begin(), block.begin() + kHeaderBytes);
  uLongf compressed = compressBound(payload.size());
  out.resize(kHeaderBytes + compressed);
  REQUIRE(compress(out.data() + kHeaderBytes, &compressed, payload.data(), payload.size()) == Z_OK);
  out.resize(kHeaderBytes + compressed + 4);
  put_u32(out, kSizeAt, static_cast<uint32_t>(out.size()));
  put_u32(out, kPayloadSizeAt, static_cast<uint32_t>(payload.size()));
  fix_crc(out);
  return out;
}

ProcessRow row(int32_t pid) {
  return {.pid = pid, .comm = "p" + std::to_string(pid), .cpu_user_ns = 10'000'000};
}

}  // namespace

TEST_CASE("Process blocks give back exactly the frames encoded", "[process_block]") {
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    for (const size_t frames : {size_t{1}, size_t{8}, size_t{40}}) {
      const auto input = synthetic_process_frames(
          {.processes = 150, .frames = frames, .changes_per_frame = 20, .seed = seed});
      const auto output = round_trip(input);
      INFO("seed " << seed << ", " << frames << " frames");
      REQUIRE(output.size() == input.size());
      for (size_t i = 0; i < input.size(); ++i) REQUIRE(output[i] == input[i]);
    }
  }
}

TEST_CASE("Process blocks keep empty frames, optional fields and exited rows", "[process_block]") {
  ProcessFrame empty{.time_unix_ns = 5};
  ProcessFrame full{
      .time_unix_ns = 5, .unattributed = NetCounters{1, 2, 3, 4}, .processes_dropped = 7};
  full.processes = {row(1), row(2), row(40000)};
  full.processes[0].io_read_bytes = 0;  // present but zero differs from absent
  full.processes[1].net = NetCounters{.tx_bytes = std::numeric_limits<uint64_t>::max()};
  full.processes[1].net_device = "eth0";
  full.processes[2].exited = true;
  full.processes[2].state = 'x';
  full.processes[2].cmdline = std::string("with\0nul and \xff bytes", 20);
  full.sockets = {{.local = "[::1]:9717", .inode = 1, .pid = 2, .tx_bytes = 0},
                  {.protocol = SocketProtocol::udp, .family = 10, .local = "0.0.0.0:53"}};
  ProcessFrame changed = full;
  changed.time_unix_ns = 6;
  changed.unattributed.reset();
  changed.processes[0].io_read_bytes.reset();
  changed.processes[1].net->tx_bytes = 0;                  // wraps around
  changed.processes.erase(changed.processes.begin() + 2);  // the exited row goes
  changed.processes.push_back(row(std::numeric_limits<int32_t>::max()));
  changed.processes.insert(changed.processes.begin(), row(std::numeric_limits<int32_t>::min()));
  changed.sockets.pop_back();
  changed.sockets[0].tx_bytes.reset();
  ProcessFrame extremes{.time_unix_ns = std::numeric_limits<int64_t>::max()};
  extremes.processes = {row(-5)};
  extremes.processes[0].start_time_unix_ns = std::numeric_limits<int64_t>::min();
  extremes.processes[0].ppid = std::numeric_limits<int32_t>::min();
  extremes.processes[0].uid = std::numeric_limits<uint32_t>::max();

  auto at = [](ProcessFrame frame, int64_t time) {
    frame.time_unix_ns = time;
    return frame;
  };
  const std::vector<ProcessFrame> sequences[] = {{empty},
                                                 {empty, empty},
                                                 {full, changed, at(empty, 7), at(full, 8)},
                                                 {empty, full},
                                                 {full, changed, extremes},
                                                 {ProcessFrame{}, extremes}};
  for (const auto& frames : sequences) CHECK(round_trip(frames) == frames);
}

TEST_CASE("A process block records its frames, times and row counts", "[process_block]") {
  const auto frames = synthetic_process_frames({.processes = 30, .frames = 5, .sockets = 4});
  const auto block = ProcessBlock::encode(frames);
  CHECK(block->frames() == 5);
  CHECK(block->first_time_ns() == frames.front().time_unix_ns);
  CHECK(block->last_time_ns() == frames.back().time_unix_ns);
  uint64_t processes = 0;
  for (const auto& frame : frames) processes += frame.processes.size();
  CHECK(block->process_rows() == processes);
  CHECK(block->socket_rows() == 20);

  std::vector<int64_t> seen;
  block->for_each_frame([&seen](const ProcessFrame& frame) {
    seen.push_back(frame.time_unix_ns);
    return seen.size() < 2;
  });
  CHECK(seen == std::vector<int64_t>{frames[0].time_unix_ns, frames[1].time_unix_ns});
}

TEST_CASE("Process block encode refuses frames that break its contract", "[process_block]") {
  CHECK_THROWS_AS(ProcessBlock::encode(std::span<const ProcessFrame>{}), std::invalid_argument);
  ProcessFrame unordered{.time_unix_ns = 1};
  unordered.processes = {row(3), row(3)};
  CHECK_THAT(ProcessBlock::check_frame(unordered, 0).error(), Catch::Matchers::Contains("pid 3"));
  CHECK_THROWS_AS(ProcessBlock::encode(std::vector{unordered}), std::invalid_argument);
  const std::vector<ProcessFrame> backwards{{.time_unix_ns = 2}, {.time_unix_ns = 1}};
  CHECK_THROWS_WITH(ProcessBlock::encode(backwards), Catch::Matchers::Contains("frame 1"));
}

TEST_CASE("Deltas make later frames cheap", "[process_block]") {
  const auto frames =
      synthetic_process_frames({.processes = 2000, .frames = 32, .changes_per_frame = 40});
  const auto one = ProcessBlock::encode(std::span(frames).first(1))->bytes().size();
  const auto all = ProcessBlock::encode(frames)->bytes().size();
  INFO("keyframe " << one << " bytes, 32 frames " << all << " bytes");
  CHECK(all < one * 3);
}

TEST_CASE("Process block parse reports truncation, corruption and foreign bytes",
          "[process_block]") {
  const auto good = bytes_of(*ProcessBlock::encode(
      synthetic_process_frames({.processes = 20, .frames = 3, .sockets = 3})));
  SECTION("every cut is an error") {
    for (size_t cut = 0; cut < good.size(); ++cut) {
      INFO("cut at " << cut);
      REQUIRE_FALSE(ProcessBlock::parse(std::span(good).first(cut)));
    }
  }
  SECTION("every flipped byte is an error") {
    for (size_t at = 0; at < good.size(); ++at) {
      auto bytes = good;
      bytes[at] ^= 0x20;
      INFO("flipped byte " << at);
      REQUIRE_FALSE(ProcessBlock::parse(bytes));
    }
  }
  SECTION("errors name what is wrong") {
    auto bytes = good;
    bytes[20] ^= 1;
    CHECK_THAT(ProcessBlock::parse(bytes).error(),
               Catch::Matchers::StartsWith("process block: CRC mismatch"));
    bytes = good;
    bytes[4] = 2;
    fix_crc(bytes);
    CHECK(ProcessBlock::parse(bytes).error() ==
          "process block: unsupported version 2 (this build reads 1)");
    CHECK(ProcessBlock::parse(std::vector<uint8_t>(100, 'x')).error() ==
          "process block: no FRPB magic at the start of the block");
    bytes = good;
    put_u32(bytes, kPayloadSizeAt, 60u << 20);
    fix_crc(bytes);
    CHECK_THAT(ProcessBlock::parse(bytes).error(), Catch::Matchers::Contains("cannot come from"));
  }
  SECTION("a block followed by more bytes reports what it used") {
    auto bytes = good;
    bytes.resize(bytes.size() + 10, 0);
    const auto parsed = ProcessBlock::parse(bytes);
    REQUIRE(parsed);
    CHECK(parsed->consumed == good.size());
  }
}

TEST_CASE("Process block parse checks the payload behind a valid CRC", "[process_block]") {
  ProcessFrame first{.time_unix_ns = 10};
  first.processes = {row(1), row(2)};
  ProcessFrame second = first;
  second.time_unix_ns = 11;
  second.processes.erase(second.processes.begin());
  const auto good = bytes_of(*ProcessBlock::encode(std::vector{first, second}));
  const auto payload = inflate_payload(good);

  SECTION("trailing payload bytes") {
    auto longer = payload;
    longer.push_back(0);
    CHECK_THAT(ProcessBlock::parse(with_payload(good, longer)).error(),
               Catch::Matchers::Contains("bytes left after the last frame"));
  }
  SECTION("every payload byte changed or cut never crashes and never decodes wrongly") {
    std::mt19937 rng(3);
    for (size_t at = 0; at < payload.size(); ++at) {
      auto changed = payload;
      changed[at] = static_cast<uint8_t>(changed[at] ^ (1 + rng() % 255));
      const auto parsed = ProcessBlock::parse(with_payload(good, changed));
      INFO("payload byte " << at << ": " << (parsed ? "" : parsed.error()));
      if (parsed) {
        // A change the checks cannot see (e.g. inside a comm) must still decode to valid frames.
        std::vector<ProcessFrame> frames;
        parsed->block->decode(frames);
        REQUIRE(frames.size() == 2);
      } else {
        REQUIRE_THAT(parsed.error(), Catch::Matchers::StartsWith("process block: "));
      }
      const auto cut =
          std::vector<uint8_t>(payload.begin(), payload.begin() + static_cast<long>(at));
      REQUIRE_FALSE(ProcessBlock::parse(with_payload(good, cut)));
    }
  }
}

TEST_CASE("A block parsed for its framing is checked when decoded, as parse checks it",
          "[process_block]") {
  ProcessFrame first{.time_unix_ns = 10};
  first.processes = {row(1), row(2)};
  ProcessFrame second = first;
  second.time_unix_ns = 11;
  second.processes.erase(second.processes.begin());
  const auto good = bytes_of(*ProcessBlock::encode(std::vector{first, second}));
  const auto payload = inflate_payload(good);
  std::mt19937 rng(5);
  for (size_t at = 0; at <= payload.size(); ++at) {
    auto changed = payload;
    if (at < payload.size()) {
      changed[at] = static_cast<uint8_t>(changed[at] ^ (1 + rng() % 255));
    } else {
      changed.pop_back();
    }
    const auto bytes = with_payload(good, changed);
    const auto lazily = ProcessBlock::parse(bytes, ProcessBlockCheck::framing);
    REQUIRE(lazily.ok());
    CHECK(lazily->block->frames() == 2);
    std::vector<ProcessFrame> frames;
    const Status decoded = lazily->block->decode_checked(frames);
    const auto fully = ProcessBlock::parse(bytes);
    INFO("payload byte " << at);
    REQUIRE(decoded.ok() == fully.ok());
    if (fully) {
      std::vector<ProcessFrame> expected;
      fully->block->decode(expected);
      CHECK(frames == expected);
    } else {
      CHECK(decoded.error() == fully.error());
    }
  }
  // The framing is still checked: a wrong CRC is refused at once.
  auto corrupt = good;
  corrupt[kHeaderBytes] ^= 1;
  CHECK_THAT(ProcessBlock::parse(corrupt, ProcessBlockCheck::framing).error(),
             Catch::Matchers::StartsWith("process block: CRC mismatch"));
}

TEST_CASE("Decoding stops at the first frame past the rows the header counts", "[process_block]") {
  ProcessFrame first{.time_unix_ns = 10};
  first.processes = {row(1), row(2)};
  ProcessFrame second = first;
  second.time_unix_ns = 11;
  second.processes.erase(second.processes.begin());
  auto bytes = bytes_of(*ProcessBlock::encode(std::vector{first, second}));
  constexpr size_t kProcessRowsAt = 36;
  put_u32(bytes, kProcessRowsAt, 2);  // the frames hold 3
  fix_crc(bytes);
  const std::string expected =
      "process block: frame 1 takes the block past the 2 processes and 0 sockets its header counts";
  CHECK(ProcessBlock::parse(bytes).error() == expected);
  const auto lazily = ProcessBlock::parse(bytes, ProcessBlockCheck::framing);
  REQUIRE(lazily.ok());
  std::vector<ProcessFrame> frames;
  CHECK(lazily->block->decode_checked(frames).error() == expected);
}
