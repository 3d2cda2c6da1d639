#include "flightrec/store/ring.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <vector>

#include "flightrec/store/cursor.h"
#include "recording.h"

using flightrec::store::Cursor;
using flightrec::store::Ring;
using flightrec::store::RingOptions;
using flightrec::store::testing::realistic_recording;
using flightrec::store::testing::Recording;
using namespace std::chrono_literals;

namespace {

RingOptions options_for(uint32_t series) {
  RingOptions options;
  options.series = series;
  options.rate = 1ms;
  options.block_frames = 100;
  return options;
}

void append_all(Ring& ring, const Recording& rec, size_t from = 0) {
  for (size_t f = from; f < rec.headers.size(); ++f)
    REQUIRE(ring.append(rec.headers[f], rec.row(f)));
}

}  // namespace

TEST_CASE("the ring seals a block every block_frames frames", "[ring]") {
  const Recording rec = realistic_recording(250, 6, 20);
  Ring ring(options_for(6));
  append_all(ring, rec);
  const auto stats = ring.stats();
  CHECK(stats.blocks == 2);
  CHECK(stats.frames == 200);
  CHECK(stats.values == 200 * 6);
  CHECK(stats.open_frames == 50);
  CHECK(stats.first_tick == rec.headers.front().tick);
  CHECK(stats.last_tick == rec.headers[199].tick);
  CHECK(stats.encoded_bytes > 0);
  CHECK(stats.bytes > stats.encoded_bytes);
}

TEST_CASE("a snapshot holds every appended frame, open block included", "[ring]") {
  const Recording rec = realistic_recording(250, 6, 21);
  Ring ring(options_for(6));
  append_all(ring, rec);
  Cursor cursor(ring.snapshot().blocks());
  std::vector<int64_t> row(6);
  for (size_t f = 0; f < rec.headers.size(); ++f) {
    REQUIRE(cursor.next());
    REQUIRE(cursor.tick() == rec.headers[f].tick);
    cursor.values(row);
    REQUIRE(std::equal(row.begin(), row.end(), rec.row(f).begin()));
  }
  CHECK_FALSE(cursor.next());
}

TEST_CASE("a slow tier seals before a block would span seal_after", "[ring]") {
  RingOptions options = options_for(2);
  options.rate = 250ms;
  Ring ring(options);
  const std::vector<int64_t> values{1, 2};
  for (uint64_t tick = 0; tick < 9; ++tick) {
    const int64_t at = static_cast<int64_t>(tick) * 250'000'000;
    REQUIRE(ring.append({tick, at, at}, values));
  }
  // Ticks 0-3 span 750 ms; tick 4 would make a second, so it starts the next block.
  const auto snapshot = ring.snapshot();
  REQUIRE(snapshot.sealed().size() == 2);
  CHECK(snapshot.sealed()[0]->frames() == 4);
  CHECK(snapshot.sealed()[1]->first_tick() == 4);
  CHECK(snapshot.open_frames() == 1);
}

TEST_CASE("the ring drops its oldest blocks once it spans more than its duration", "[ring]") {
  RingOptions options = options_for(4);
  options.duration = 350ms;
  const Recording rec = realistic_recording(1000, 4, 22);
  Ring ring(options);
  append_all(ring, rec);
  const auto stats = ring.stats();
  const auto span_ticks = stats.last_tick - stats.first_tick + 1;
  CHECK(span_ticks <= 350);
  CHECK(span_ticks > 250);  // never more than a block short of the duration
  CHECK(stats.last_tick == rec.headers.back().tick);
  CHECK(stats.dropped_blocks == 10 - stats.blocks);
}

TEST_CASE("the ring drops its oldest blocks to stay within max_bytes", "[ring]") {
  const Recording rec = realistic_recording(2000, 50, 23);
  RingOptions options = options_for(50);
  Ring unbounded(options);
  append_all(unbounded, rec);
  const auto block_bytes = unbounded.snapshot().sealed().back()->memory_bytes();

  options.max_bytes = block_bytes * 5;
  Ring ring(options);
  size_t previous_first = 0;
  for (size_t f = 0; f < rec.headers.size(); ++f) {
    REQUIRE(ring.append(rec.headers[f], rec.row(f)));
    const auto stats = ring.stats();
    REQUIRE(stats.bytes <= options.max_bytes);
    REQUIRE(stats.first_tick >= previous_first);  // oldest go first, order is kept
    previous_first = stats.first_tick;
  }
  const auto stats = ring.stats();
  CHECK(stats.blocks >= 3);
  CHECK(stats.last_tick == rec.headers[1999].tick);
  CHECK(stats.dropped_blocks > 0);
}

TEST_CASE("a snapshot keeps blocks alive after they leave the ring", "[ring]") {
  RingOptions options = options_for(3);
  options.duration = 250ms;  // two blocks, with room for a few missed ticks
  const Recording rec = realistic_recording(1000, 3, 24);
  Ring ring(options);
  for (size_t f = 0; f < 200; ++f) ring.append(rec.headers[f], rec.row(f));
  const auto early = ring.snapshot();
  REQUIRE(early.sealed().size() == 2);
  append_all(ring, rec, 200);
  CHECK(ring.stats().first_tick > early.sealed().back()->last_tick());
  Cursor cursor(early.blocks());
  for (size_t f = 0; f < 200; ++f) {
    REQUIRE(cursor.next());
    REQUIRE(cursor.tick() == rec.headers[f].tick);
    REQUIRE(cursor.value(2) == rec.at(f, 2));
  }
  CHECK_FALSE(cursor.next());
}

TEST_CASE("frames whose tick does not advance are rejected and counted", "[ring]") {
  Ring ring(options_for(1));
  const std::vector<int64_t> values{7};
  CHECK(ring.append({10, 0, 0}, values));
  CHECK_FALSE(ring.append({10, 1, 1}, values));
  CHECK_FALSE(ring.append({9, 2, 2}, values));
  CHECK(ring.append({11, 3, 3}, values));
  CHECK(ring.rejected_frames() == 2);
  CHECK(ring.stats().open_frames == 2);
}

TEST_CASE("a frame of the wrong width and impossible options are set-up errors", "[ring]") {
  Ring ring(options_for(3));
  const std::vector<int64_t> two{1, 2};
  CHECK_THROWS_AS(ring.append({0, 0, 0}, two), std::invalid_argument);
  RingOptions bad = options_for(3);
  bad.block_frames = 0;
  CHECK_THROWS_AS(Ring(bad), std::invalid_argument);
  bad = options_for(3);
  bad.rate = 0ms;
  CHECK_THROWS_AS(Ring(bad), std::invalid_argument);
}

TEST_CASE("seal() publishes the open frames as a block", "[ring]") {
  const Recording rec = realistic_recording(30, 2, 25);
  Ring ring(options_for(2));
  append_all(ring, rec);
  CHECK(ring.snapshot().sealed().empty());
  ring.seal();
  const auto snapshot = ring.snapshot();
  REQUIRE(snapshot.sealed().size() == 1);
  CHECK(snapshot.sealed()[0]->frames() == 30);
  CHECK(snapshot.open_frames() == 0);
  CHECK(snapshot.encode_open() == nullptr);
}
