#include "flightrec/store/cursor.h"

#include <catch2/catch.hpp>
#include <vector>

#include "flightrec/store/ring.h"
#include "recording.h"

using flightrec::store::Cursor;
using flightrec::store::read_series;
using flightrec::store::Ring;
using flightrec::store::RingOptions;
using flightrec::store::TimeRange;
using flightrec::store::testing::realistic_recording;
using flightrec::store::testing::Recording;

namespace {

std::vector<std::shared_ptr<const flightrec::store::Block>> recorded(const Recording& rec) {
  RingOptions options;
  options.series = rec.series;
  options.block_frames = 64;
  Ring ring(options);
  for (size_t f = 0; f < rec.headers.size(); ++f) ring.append(rec.headers[f], rec.row(f));
  return ring.snapshot().blocks();
}

}  // namespace

TEST_CASE("a cursor over a time range yields exactly the frames in it", "[cursor]") {
  const Recording rec = realistic_recording(500, 5, 30);
  const auto blocks = recorded(rec);
  // The range starts and ends inside blocks; grid times are at most 200 us before the reads.
  const TimeRange range{blocks[1]->real_ns(rec.headers[100].tick),
                        blocks[5]->real_ns(rec.headers[333].tick)};
  Cursor cursor(blocks, range);
  for (size_t f = 100; f <= 333; ++f) {
    REQUIRE(cursor.next());
    REQUIRE(cursor.tick() == rec.headers[f].tick);
    REQUIRE(range.contains(cursor.real_ns()));
    for (uint32_t s = 0; s < rec.series; ++s) REQUIRE(cursor.value(s) == rec.at(f, s));
  }
  CHECK_FALSE(cursor.next());
  CHECK_FALSE(cursor.next());
}

TEST_CASE("a cursor over no blocks or an empty range yields nothing", "[cursor]") {
  CHECK_FALSE(Cursor({}).next());
  const auto blocks = recorded(realistic_recording(100, 2, 31));
  CHECK_FALSE(Cursor(blocks, TimeRange{0, 1}).next());
}

TEST_CASE("read_series returns one series over a range", "[cursor]") {
  const Recording rec = realistic_recording(400, 4, 32);
  const auto blocks = recorded(rec);
  const TimeRange range{blocks[0]->real_ns(rec.headers[10].tick),
                        blocks.back()->real_ns(rec.headers[390].tick)};
  std::vector<uint64_t> ticks;
  std::vector<int64_t> values;
  read_series(blocks, 3, range, ticks, values);
  REQUIRE(ticks.size() == 381);
  REQUIRE(values.size() == 381);
  for (size_t i = 0; i < ticks.size(); ++i) {
    REQUIRE(ticks[i] == rec.headers[10 + i].tick);
    REQUIRE(values[i] == rec.at(10 + i, 3));
  }
}
