#include "flightrec/store/process_ring.h"

#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <thread>

#include "process_frames.h"

using namespace flightrec;
using namespace flightrec::store;
using namespace flightrec::store::testing;
using namespace std::chrono_literals;

namespace {

std::vector<ProcessFrame> decode_all(const ProcessRing::Blocks& blocks) {
  std::vector<ProcessFrame> out;
  for (const auto& block : blocks) {
    block->for_each_frame([&out](const ProcessFrame& frame) {
      out.push_back(frame);
      return true;
    });
  }
  return out;
}

}  // namespace

TEST_CASE("ProcessRing seals a block every frames_per_block frames", "[process_ring]") {
  ProcessRing ring({.frames_per_block = 4});
  const auto frames = synthetic_process_frames({.processes = 50, .frames = 10});
  for (const auto& frame : frames) REQUIRE(ring.push(frame));
  const auto stats = ring.stats();
  CHECK(stats.frames == 10);
  CHECK(stats.blocks == 2);
  CHECK(stats.bytes > 0);
  CHECK(stats.first_time_ns == frames.front().time_unix_ns);
  CHECK(stats.last_time_ns == frames.back().time_unix_ns);

  const auto blocks = ring.blocks();
  REQUIRE(blocks.size() == 3);  // two sealed, the two open frames encoded on the fly
  CHECK(blocks[2]->frames() == 2);
  CHECK(decode_all(blocks) == frames);
  REQUIRE(ring.latest() != nullptr);
  CHECK(*ring.latest() == frames.back());

  ring.seal();
  CHECK(ring.stats().blocks == 3);
  CHECK(decode_all(ring.blocks()) == frames);
}

TEST_CASE("ProcessRing::frames_between returns the frames of a window", "[process_ring]") {
  ProcessRing ring({.frames_per_block = 3});
  const auto frames = synthetic_process_frames({.processes = 20, .frames = 8});
  for (const auto& frame : frames) REQUIRE(ring.push(frame));
  const auto window = ring.frames_between(frames[2].time_unix_ns, frames[6].time_unix_ns);
  CHECK(window == std::vector<ProcessFrame>(frames.begin() + 2, frames.begin() + 7));
  CHECK(ring.frames_between(0, frames[0].time_unix_ns - 1).empty());
  CHECK(ring.frames_between(frames[7].time_unix_ns, INT64_MAX).size() == 1);
}

TEST_CASE("ProcessRing drops the oldest blocks by duration and by bytes", "[process_ring]") {
  const auto frames = synthetic_process_frames({.processes = 40, .frames = 40});
  SECTION("duration") {
    // 40 frames 250 ms apart; 2 s keeps the blocks within 2 s of the newest frame.
    ProcessRing ring({.duration = 2s, .frames_per_block = 4});
    for (const auto& frame : frames) REQUIRE(ring.push(frame));
    const auto stats = ring.stats();
    CHECK(stats.dropped_blocks > 0);
    CHECK(stats.frames + stats.dropped_frames == 40);
    CHECK(stats.last_time_ns - stats.first_time_ns <= 2'000'000'000);
    CHECK(stats.last_time_ns - stats.first_time_ns >= 2'000'000'000 - 4 * kProcessTickNs);
    const auto kept = decode_all(ring.blocks());
    CHECK(kept ==
          std::vector<ProcessFrame>(frames.end() - static_cast<long>(kept.size()), frames.end()));
  }
  SECTION("bytes") {
    ProcessRing unbounded({.frames_per_block = 4});
    for (const auto& frame : frames) REQUIRE(unbounded.push(frame));
    const auto all_bytes = unbounded.stats().bytes;
    ProcessRing ring({.max_bytes = all_bytes / 2, .frames_per_block = 4});
    for (const auto& frame : frames) REQUIRE(ring.push(frame));
    CHECK(ring.stats().bytes <= all_bytes / 2);
    CHECK(ring.stats().blocks >= 3);
    CHECK(ring.stats().dropped_blocks >= 4);
  }
}

TEST_CASE("ProcessRing refuses frames that go back in time or are out of pid order",
          "[process_ring]") {
  ProcessRing ring({});
  CHECK(ring.push({.time_unix_ns = 10}));
  CHECK_THAT(ring.push({.time_unix_ns = 9}).error(), Catch::Matchers::Contains("before"));
  ProcessFrame unordered{.time_unix_ns = 11};
  unordered.processes = {{.pid = 2}, {.pid = 1}};
  CHECK_FALSE(ring.push(unordered));
  CHECK(ring.stats().rejected_frames == 2);
  CHECK(ring.stats().frames == 1);
  CHECK_THROWS_AS(ProcessRing({.frames_per_block = 0}), std::invalid_argument);
}

TEST_CASE("ProcessRing readers see every frame exactly once while the writer pushes",
          "[process_ring][concurrency]") {
  const auto frames = synthetic_process_frames({.processes = 60, .frames = 120, .sockets = 5});
  ProcessRing ring({.duration = 10s, .frames_per_block = 5});
  std::atomic<bool> done{false};
  std::atomic<int> bad_views{0};  // Catch's REQUIRE is not for other threads
  auto reader = [&] {
    while (!done.load()) {
      const auto seen = decode_all(ring.blocks());
      // Each view is a contiguous run of the input, in order, every frame once.
      if (!seen.empty()) {
        auto at = std::find(frames.begin(), frames.end(), seen.front());
        const bool contiguous = at != frames.end() &&
                                frames.end() - at >= static_cast<long>(seen.size()) &&
                                std::equal(seen.begin(), seen.end(), at);
        if (!contiguous) ++bad_views;
      }
      const auto latest = ring.latest();
      if (latest && !seen.empty() && latest->time_unix_ns < seen.back().time_unix_ns) ++bad_views;
      (void)ring.stats();
    }
  };
  std::thread first(reader);
  std::thread second(reader);
  for (const auto& frame : frames) REQUIRE(ring.push(frame));
  done = true;
  first.join();
  second.join();
  CHECK(bad_views == 0);
  const auto kept = decode_all(ring.blocks());
  CHECK(kept ==
        std::vector<ProcessFrame>(frames.end() - static_cast<long>(kept.size()), frames.end()));
  CHECK(ring.stats().dropped_frames + kept.size() == frames.size());
}

namespace {
// `processes` rows with `cmdline_bytes` of (compressible) command line each.
ProcessFrame wide_frame(int64_t time_ns, int32_t processes, size_t cmdline_bytes) {
  ProcessFrame frame;
  frame.time_unix_ns = time_ns;
  for (int32_t pid = 1; pid <= processes; ++pid) {
    process::ProcessRow row;
    row.pid = pid;
    row.cmdline.assign(cmdline_bytes, 'a');
    frame.processes.push_back(std::move(row));
  }
  return frame;
}
}  // namespace

TEST_CASE(
    "ProcessRing seals early when the frames' text would not fit one block, and refuses a "
    "frame that cannot fit alone",
    "[process_ring]") {
  ProcessRing ring({.duration = 10min, .max_bytes = 1ull << 30, .frames_per_block = 64});
  // ~8 MiB of command lines per frame: 64 frames would be 512 MiB, far over one block's payload.
  for (int64_t i = 0; i < 10; ++i) {
    REQUIRE(ring.push(wide_frame(1'000'000'000 + i, 2000, 4096)));
  }
  CHECK(ring.stats().blocks >= 1);
  CHECK(decode_all(ring.blocks()).size() == 10);

  const std::string refused = ring.push(wide_frame(2'000'000'000, 17000, 4096)).error();
  CHECK_THAT(refused, Catch::Contains("lower processes.max_count"));
  CHECK(ring.stats().rejected_frames == 1);
  CHECK(ring.push(wide_frame(3'000'000'000, 3, 10)));  // and the ring goes on
}
