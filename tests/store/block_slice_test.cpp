#include "flightrec/store/block_slice.h"

#include <catch2/catch.hpp>
#include <vector>

#include "process_frames.h"

using namespace flightrec;
using namespace flightrec::store;

namespace {

constexpr int64_t kRate = 1'000'000;
constexpr int64_t kT0 = 1'764'478'800'000'000'000;

// Ticks first..first+frames-1 of two series: tick*10 and tick*10+1.
std::shared_ptr<const Block> block_of(uint64_t first, uint32_t frames) {
  std::vector<sampler::FrameHeader> headers;
  std::vector<int64_t> values;
  for (uint64_t tick = first; tick < first + frames; ++tick) {
    const int64_t offset = static_cast<int64_t>(tick) * kRate;
    headers.push_back({.tick = tick, .mono_ns = offset, .real_ns = kT0 + offset});
    values.push_back(static_cast<int64_t>(tick) * 10);
    values.push_back(static_cast<int64_t>(tick) * 10 + 1);
  }
  return Block::encode(headers, values, 2, kRate);
}

int64_t at(uint64_t tick) { return kT0 + static_cast<int64_t>(tick) * kRate; }

}  // namespace

TEST_CASE("framesBetweenKeepsOnlyTheFramesInsideTheSpan", "[slice]") {
  const auto block = block_of(100, 50);  // ticks 100..149
  const auto slice = frames_between(block, at(119), at(130));
  REQUIRE(slice != nullptr);
  CHECK(slice->first_tick() == 120);
  CHECK(slice->last_tick() == 130);
  CHECK(slice->frames() == 11);
  CHECK(slice->real_ns(120) == at(120));
  CHECK(slice->mono_ns(130) == 130 * kRate);
  std::vector<int64_t> second;
  slice->decode_series(1, second);
  REQUIRE(second.size() == 11);
  CHECK(second.front() == 1201);
  CHECK(second.back() == 1301);
}

TEST_CASE("framesBetweenReturnsTheBlockItselfOrNothing", "[slice]") {
  const auto block = block_of(100, 50);
  CHECK(frames_between(block, at(99), at(149)) == block);
  CHECK(frames_between(block, at(149), at(500)) == nullptr);
  CHECK(frames_between(block, at(0), at(99)) == nullptr);
}

TEST_CASE("processFramesBetweenKeepsOnlyTheFramesInsideTheSpan", "[slice]") {
  const auto frames =
      testing::synthetic_process_frames({.processes = 20, .frames = 8, .sockets = 4});
  const auto block = ProcessBlock::encode(frames);
  // The generator's times jitter: the bounds are frames' own times.
  const auto time = [&](size_t i) { return frames[i].time_unix_ns; };
  CHECK(process_frames_between(block, time(0) - 1, time(7)) == block);
  CHECK(process_frames_between(block, time(7), time(7) + 1'000'000'000) == nullptr);
  const auto slice = process_frames_between(block, time(2), time(4));
  REQUIRE(slice != nullptr);
  std::vector<ProcessBlock::Frame> decoded;
  slice->decode(decoded);
  REQUIRE(decoded.size() == 2);
  CHECK(decoded[0] == frames[3]);
  CHECK(decoded[1] == frames[4]);
}
