// Process frames decoded as the cursor needs them (process blocks kept as stored) give the frames
// that the whole recording decoded gives, and a damaged block is named rather than fatal.
#include "flightrec/replay/process_history.h"

#include <zlib.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstring>

#include "flightrec/replay/model.h"
#include "flightrec/replay/rss_growth.h"
#include "flightrec/replay/session.h"
#include "flightrec/store/process_block.h"
#include "replay_fixture.h"

using namespace flightrec;
using namespace flightrec::replay;
using namespace flightrec::replay::testing;
using process::ProcessFrame;

namespace {

// Blocks of `per_block` frames, parsed as replay reads them: framing only.
recording::ProcessBlockList blocks_of(const std::vector<ProcessFrame>& frames, size_t per_block) {
  recording::ProcessBlockList blocks;
  for (size_t at = 0; at < frames.size(); at += per_block) {
    const auto encoded = store::ProcessBlock::encode(
        std::span(frames).subspan(at, std::min(per_block, frames.size() - at)));
    auto parsed = store::ProcessBlock::parse(encoded->bytes(), store::ProcessBlockCheck::framing);
    REQUIRE(parsed.ok());
    blocks.push_back(parsed->block);
  }
  return blocks;
}

// frames_around's rule over all frames at once: the newest at or before the time, and the newest
// at least `interval` before that, else the one before it.
std::pair<const ProcessFrame*, const ProcessFrame*> expected_around(
    const std::vector<ProcessFrame>& frames, int64_t time_ns, int64_t interval_ns) {
  size_t current = frames.size();
  for (size_t i = 0; i < frames.size() && frames[i].time_unix_ns <= time_ns; ++i) current = i;
  if (current == frames.size()) return {nullptr, nullptr};
  if (current == 0) return {&frames[0], nullptr};
  size_t previous = current - 1;
  for (size_t i = 0; i < current; ++i) {
    if (frames[i].time_unix_ns <= frames[current].time_unix_ns - interval_ns) previous = i;
  }
  return {&frames[current], &frames[previous]};
}

// The block with its header counting one process too many, its CRC made to match: the framing
// check passes, the frames' check does not.
std::shared_ptr<const store::ProcessBlock> damaged(const store::ProcessBlock& block) {
  std::vector<uint8_t> bytes(block.bytes().begin(), block.bytes().end());
  constexpr size_t kProcessRowsAt = 36;  // docs/STORAGE.md, "Process blocks"
  uint32_t rows = 0;
  std::memcpy(&rows, bytes.data() + kProcessRowsAt, 4);
  ++rows;
  std::memcpy(bytes.data() + kProcessRowsAt, &rows, 4);
  const auto crc =
      static_cast<uint32_t>(crc32(0, bytes.data(), static_cast<uInt>(bytes.size() - 4)));
  std::memcpy(bytes.data() + bytes.size() - 4, &crc, 4);
  auto parsed = store::ProcessBlock::parse(bytes, store::ProcessBlockCheck::framing);
  REQUIRE(parsed.ok());
  return parsed->block;
}

}  // namespace

TEST_CASE("processFramesDecodedAsNeededAreTheWholeRecordingsFrames", "[replay][history]") {
  const std::vector<ProcessFrame> frames = fixture().process_frames;
  const size_t per_block = GENERATE(size_t{1}, size_t{3}, size_t{5}, size_t{13});
  const ProcessHistory lazy({}, blocks_of(frames, per_block));
  const ProcessHistory whole(frames, {});
  REQUIRE(lazy.size() == frames.size());
  std::vector<int64_t> times;
  for (const auto& frame : frames) times.push_back(frame.time_unix_ns);
  CHECK(lazy.times() == times);

  // Kept from the first lookup: what it points into stays valid while every block is decoded
  // (and all but a few dropped again) after it.
  const ProcessHistory::Around first = lazy.around(kStartNs, 0);
  for (int64_t t = kStartNs - 100'000'000; t <= kStartNs + 3'100'000'000; t += 50'000'000) {
    for (const int64_t interval : {int64_t{0}, int64_t{10'000'000}, kProcessPeriodNs,
                                   int64_t{1'000'000'000}, int64_t{10'000'000'000}}) {
      const auto [frame, previous] = expected_around(frames, t, interval);
      const ProcessHistory::Around got = lazy.around(t, interval);
      const ProcessHistory::Around in_memory = whole.around(t, interval);
      INFO("time +" << (t - kStartNs) << " ns, interval " << interval << " ns");
      for (const auto& around : {got, in_memory}) {
        REQUIRE((around.frame == nullptr) == (frame == nullptr));
        REQUIRE((around.previous == nullptr) == (previous == nullptr));
        if (frame != nullptr) CHECK(*around.frame == *frame);
        if (previous != nullptr) CHECK(*around.previous == *previous);
      }
    }
  }
  REQUIRE(first.frame != nullptr);
  CHECK(*first.frame == frames.front());
  CHECK(lazy.error().empty());
}

TEST_CASE("aDamagedProcessBlockIsNamedAndTheOthersStillShow", "[replay][history]") {
  const std::vector<ProcessFrame> frames = fixture().process_frames;
  auto blocks = blocks_of(frames, 4);
  blocks[1] = damaged(*blocks[1]);

  const ProcessHistory history({}, std::move(blocks));
  const auto before = history.around(frames[2].time_unix_ns, 0);
  REQUIRE(before.frame != nullptr);
  CHECK(*before.frame == frames[2]);
  CHECK(history.error().empty());

  const auto inside = history.around(frames[5].time_unix_ns, 0);
  CHECK(inside.frame == nullptr);
  CHECK_THAT(history.error(),
             Catch::Matchers::StartsWith("the process frames from 2025-11-30T05:00:01.000Z to "
                                         "2025-11-30T05:00:01.750Z are damaged (process block: "
                                         "the header counts"));
  // Past it the frames show; rates that would start in the damaged block start from the frame
  // just before instead.
  const auto after = history.around(frames[9].time_unix_ns, 1'000'000'000);
  REQUIRE(after.frame != nullptr);
  CHECK(*after.frame == frames[9]);
  REQUIRE(after.previous != nullptr);
  CHECK(*after.previous == frames[8]);
  // RGROW that would start in the damaged block is unknown, not zero; past it, it shows.
  const auto growth = rss_growth(history, *after.frame, 1'000'000'000);
  REQUIRE(growth.bytes.size() == after.frame->processes.size());
  CHECK(std::ranges::all_of(growth.bytes, [](const auto& bytes) { return !bytes.has_value(); }));
  const auto recent = rss_growth(history, *after.frame, 250'000'000);
  CHECK(std::ranges::all_of(recent.bytes, [](const auto& bytes) { return bytes.has_value(); }));
}

TEST_CASE("theInteractiveViewSaysWhenTheCursorReachesADamagedProcessBlock", "[replay][history]") {
  ReplayData data = fixture();
  auto blocks = blocks_of(data.process_frames, 4);
  blocks[1] = damaged(*blocks[1]);
  data.process_frames.clear();
  data.process_blocks = std::move(blocks);
  const Model model(std::move(data), fixture_users());
  // At the start: the first block, whole.
  Session session(model, 0, Tab::processes, 0);
  CHECK(session.message().empty());
  CHECK(session.table().rows.size() == 7);
  // One second on: the second block, damaged.
  session.handle_key('}');
  CHECK_THAT(session.message(), Catch::Matchers::Contains("are damaged (process block: "));
  CHECK(session.table().rows.empty());
  // Said once; the frames after it show again.
  session.handle_key('}');
  CHECK(session.message().empty());
  CHECK_FALSE(session.table().rows.empty());
}
