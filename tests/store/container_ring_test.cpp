// The container ring: frames kept encoded, bounded by span and bytes, chosen by time.
#include "flightrec/store/container_ring.h"

#include <catch2/catch.hpp>

#include "container_frames.h"
#include "flightrec/container/frame/container_frame_codec.h"

using namespace flightrec;
using namespace flightrec::store;
using namespace std::chrono_literals;

namespace {

constexpr int64_t kStart = 1'764'000'000'000'000'000;
constexpr int64_t kStep = 100'000'000;  // the sample frames' 100 ms

// `count` frames 100 ms apart with one container each.
std::vector<container::ContainerFrame> frames_of(size_t count) {
  std::vector<container::ContainerFrame> frames;
  for (size_t i = 0; i < count; ++i) {
    auto frame = test::sample_container_frames(kStart + static_cast<int64_t>(i) * kStep, 1)[0];
    frames.push_back(std::move(frame));
  }
  return frames;
}

}  // namespace

TEST_CASE("ContainerRing keeps frames that decode to what was pushed", "[container_ring]") {
  ContainerRing ring({});
  CHECK(ring.latest() == nullptr);
  const auto frames = test::sample_container_frames(kStart);
  for (const auto& frame : frames) REQUIRE(ring.push(frame));
  const auto stored = ring.frames();
  REQUIRE(stored.size() == frames.size());
  for (size_t i = 0; i < frames.size(); ++i) {
    CHECK(stored[i]->time_unix_ns == frames[i].time_unix_ns);
    const auto decoded = container::decode_container_frame(stored[i]->bytes);
    REQUIRE(decoded);
    CHECK(*decoded == frames[i]);
  }
  CHECK(ring.latest()->time_unix_ns == frames.back().time_unix_ns);
  const auto stats = ring.stats();
  CHECK(stats.frames == 4);
  CHECK(stats.first_time_ns == kStart);
  CHECK(stats.last_time_ns == kStart + 3 * kStep);
  uint64_t bytes = 0;
  for (const auto& frame : stored) bytes += frame->bytes.size();
  CHECK(stats.bytes == bytes);
}

TEST_CASE("ContainerRing drops the oldest frames beyond its duration", "[container_ring]") {
  ContainerRing ring({.duration = 1s});
  for (const auto& frame : frames_of(30)) REQUIRE(ring.push(frame));
  const auto stats = ring.stats();
  // 3 s of frames, 1 s kept: the newest and the ten before it.
  CHECK(stats.frames == 11);
  CHECK(stats.dropped_frames == 19);
  CHECK(stats.last_time_ns - stats.first_time_ns == 1'000'000'000);
}

TEST_CASE("ContainerRing drops the oldest frames beyond its bytes", "[container_ring]") {
  const auto frames = frames_of(20);
  const uint64_t one = container::encode_container_frame(frames[0]).size();
  ContainerRing ring({.max_bytes = one * 5 + one / 2});
  for (const auto& frame : frames) REQUIRE(ring.push(frame));
  const auto stats = ring.stats();
  CHECK(stats.frames == 5);
  CHECK(stats.bytes <= ring.options().max_bytes);
  CHECK(stats.dropped_frames == 15);
  CHECK(ring.frames().front()->time_unix_ns == frames[15].time_unix_ns);
}

TEST_CASE("ContainerRing refuses a frame back in time or bigger than the ring",
          "[container_ring]") {
  const auto frames = frames_of(3);
  ContainerRing ring({.max_bytes = 100});
  const auto big = ring.push(frames[0]);
  CHECK_THAT(big.error(), Catch::Matchers::Contains("more than the whole ring holds (100)"));
  ContainerRing roomy({});
  REQUIRE(roomy.push(frames[2]));
  CHECK_THAT(roomy.push(frames[1]).error(), Catch::Matchers::Contains("the clock went back"));
  CHECK(roomy.stats().rejected_frames == 1);
  CHECK(roomy.stats().frames == 1);
}

TEST_CASE("ContainerRing gives the frames of a window", "[container_ring]") {
  ContainerRing ring({});
  for (const auto& frame : frames_of(10)) REQUIRE(ring.push(frame));
  const auto window = ring.frames_between(kStart + 2 * kStep, kStart + 5 * kStep);
  REQUIRE(window.size() == 4);  // both ends inclusive
  CHECK(window.front()->time_unix_ns == kStart + 2 * kStep);
  CHECK(window.back()->time_unix_ns == kStart + 5 * kStep);
  CHECK(ring.frames_between(kStart + 20 * kStep, kStart + 30 * kStep).empty());
}
