#include "flightrec/recorder/recorder.h"

#include <catch2/catch.hpp>
#include <thread>
#include <vector>

using namespace flightrec;
using namespace std::chrono_literals;

TEST_CASE("Recorder moves queued frames into the ring and keeps the newest for readers",
          "[recorder]") {
  sampler::Schema schema(2);
  schema[0].name = "memory_total_bytes";
  schema[1].name = "memory_available_bytes";
  sampler::FrameQueue queue(2, 64);
  store::Ring ring({.series = 2, .rate = 1ms, .duration = 10s, .max_bytes = 1 << 20});
  recorder::Recorder recorder(queue, ring, schema, 1ms, 15s);

  sampler::FrameHeader header;
  std::vector<int64_t> values;
  CHECK_FALSE(recorder.latest(header, values));
  for (uint64_t t = 0; t < 10; ++t) {
    REQUIRE(queue.push({t, static_cast<int64_t>(t) * 1'000'000, 0},
                       std::vector<int64_t>{1000, 1000 - static_cast<int64_t>(t)}));
  }
  CHECK(recorder.drain() == 10);
  CHECK(recorder.frames_recorded() == 10);
  REQUIRE(recorder.latest(header, values));
  CHECK(header.tick == 9);
  CHECK(values == std::vector<int64_t>{1000, 991});
  CHECK(ring.snapshot().stats().open_frames + ring.stats().frames == 10);
  const auto used = recorder.window_stats().aggregates(9'000'000).at(0);  // memory_used_bytes
  CHECK(used.max == 9);
  CHECK(used.min == 0);
}

TEST_CASE("Recorder's run drains what is left and seals the block when stopped", "[recorder]") {
  sampler::FrameQueue queue(1, 64);
  store::Ring ring({.series = 1, .rate = 1ms, .duration = 10s, .max_bytes = 1 << 20});
  recorder::Recorder recorder(queue, ring, sampler::Schema(1), 1ms, 15s);
  StopSignal stop;
  std::thread thread([&] { recorder.run(stop); });
  for (uint64_t t = 0; t < 5; ++t) REQUIRE(queue.push({t, 0, 0}, std::vector<int64_t>{42}));
  stop.request();
  thread.join();
  CHECK(recorder.frames_recorded() == 5);
  CHECK(ring.stats().frames == 5);  // sealed: no frame left in the open block
}
