#include "flightrec/recorder/recorder.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <thread>
#include <utility>
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

TEST_CASE("Recorder's run takes frames in batches, none much later than one interval",
          "[recorder]") {
  using Clock = std::chrono::steady_clock;
  sampler::FrameQueue queue(1, 1024);
  store::Ring ring({.series = 1, .rate = 1ms, .duration = 10s, .max_bytes = 1 << 20});
  recorder::Recorder recorder(queue, ring, sampler::Schema(1), 1ms, 15s);
  // When each frame was recorded, against when it was queued (its header's mono_ns).
  std::vector<std::pair<Clock::time_point, int64_t>> seen;
  recorder.set_frame_hook([&](const sampler::FrameHeader& header, auto, auto) {
    seen.emplace_back(Clock::now(), header.mono_ns);
  });
  StopSignal stop;
  const auto start = Clock::now();
  std::thread thread([&] { recorder.run(stop); });  // the daemon's default interval
  for (uint64_t t = 0; t < 200; ++t) {              // a frame a millisecond, as the sampler at 1 ms
    const int64_t queued = std::chrono::nanoseconds(Clock::now() - start).count();
    REQUIRE(queue.push({t, queued, 0}, std::vector<int64_t>{1}));
    std::this_thread::sleep_for(1ms);
  }
  const auto produced_for = Clock::now() - start;
  stop.request();
  thread.join();
  REQUIRE(seen.size() == 200);
  // A batch is the frames recorded at one wake-up, microseconds apart: one per 25 ms of producing
  // (each frame alone, a millisecond after the last, when the recorder woke every 2 ms). Twice
  // that, for a loaded machine that splits a batch or oversleeps the producer.
  size_t batches = 1;
  for (size_t i = 1; i < seen.size(); ++i) {
    if (seen[i].first - seen[i - 1].first > 300us) ++batches;
  }
  const auto intervals = static_cast<size_t>(produced_for / 25ms) + 1;
  INFO(
      "produced for " << std::chrono::duration_cast<std::chrono::milliseconds>(produced_for).count()
                      << " ms");
  CHECK(batches <= std::max<size_t>(16, 2 * intervals));
  // And no frame waited much longer than one interval.
  int64_t worst_ns = 0;
  for (const auto& [recorded, queued] : seen) {
    worst_ns = std::max(worst_ns, std::chrono::nanoseconds(recorded - start).count() - queued);
  }
  CHECK(worst_ns < std::chrono::nanoseconds(200ms).count());
}
