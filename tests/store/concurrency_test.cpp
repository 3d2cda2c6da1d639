#include <atomic>
#include <catch2/catch.hpp>
#include <thread>
#include <vector>

#include "flightrec/store/cursor.h"
#include "flightrec/store/ring.h"
#include "recording.h"

using flightrec::store::Cursor;
using flightrec::store::Ring;
using flightrec::store::RingOptions;
using flightrec::store::testing::realistic_recording;
using flightrec::store::testing::Recording;
using namespace std::chrono_literals;

TEST_CASE("readers decode snapshots while the writer appends and drops", "[ring][concurrency]") {
  const Recording rec = realistic_recording(6000, 40, 40);
  RingOptions options;
  options.series = rec.series;
  options.block_frames = 128;
  options.duration = 1500ms;  // blocks keep leaving the ring while readers hold them
  Ring ring(options);

  std::atomic<bool> done{false};
  std::atomic<uint64_t> frames_checked{0};
  std::atomic<uint64_t> mismatches{0};
  auto reader = [&] {
    std::vector<int64_t> row(rec.series);
    while (!done.load(std::memory_order_acquire)) {
      const auto snapshot = ring.snapshot();
      Cursor cursor(snapshot.blocks());
      while (cursor.next()) {
        // Ticks are unique in the recording: find the frame and compare every value.
        const auto it =
            std::lower_bound(rec.headers.begin(), rec.headers.end(), cursor.tick(),
                             [](const auto& header, uint64_t tick) { return header.tick < tick; });
        cursor.values(row);
        if (it == rec.headers.end() || it->tick != cursor.tick() ||
            !std::equal(row.begin(), row.end(),
                        rec.row(static_cast<size_t>(it - rec.headers.begin())).begin())) {
          mismatches.fetch_add(1);
        }
        frames_checked.fetch_add(1, std::memory_order_relaxed);
      }
    }
  };
  std::thread first(reader);
  std::thread second(reader);
  for (size_t f = 0; f < rec.headers.size(); ++f) {
    ring.append(rec.headers[f], rec.row(f));
    if (f % 64 == 0) std::this_thread::yield();
  }
  done.store(true, std::memory_order_release);
  first.join();
  second.join();
  CHECK(mismatches.load() == 0);
  CHECK(frames_checked.load() > 0);
  const auto stats = ring.stats();
  CHECK(stats.last_tick - stats.first_tick + 1 <= 1500);
  CHECK(stats.dropped_blocks > 0);
}
