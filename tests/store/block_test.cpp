#include "flightrec/store/block.h"

#include <zlib.h>

#include <catch2/catch.hpp>
#include <cstring>
#include <random>
#include <vector>

#include "flightrec/sampler/series.h"
#include "recording.h"

using flightrec::store::Block;
using flightrec::store::testing::adversarial_recording;
using flightrec::store::testing::kRateNs;
using flightrec::store::testing::realistic_recording;
using flightrec::store::testing::Recording;

namespace {

std::shared_ptr<const Block> encode(const Recording& rec, size_t first, size_t count) {
  return Block::encode(std::span(rec.headers).subspan(first, count),
                       std::span(rec.values).subspan(first * rec.series, count * rec.series),
                       rec.series, kRateNs);
}

// Every tick and value of `block` equals frames [first, first + block.frames()) of `rec`.
void require_same(const Block& block, const Recording& rec, size_t first) {
  std::vector<uint64_t> ticks;
  block.decode_ticks(ticks);
  REQUIRE(ticks.size() == block.frames());
  for (size_t f = 0; f < ticks.size(); ++f) REQUIRE(ticks[f] == rec.headers[first + f].tick);
  std::vector<int64_t> column;
  for (uint32_t s = 0; s < rec.series; ++s) {
    block.decode_series(s, column);
    for (size_t f = 0; f < column.size(); ++f) {
      INFO("series " << s << " frame " << f);
      REQUIRE(column[f] == rec.at(first + f, s));
    }
  }
}

std::vector<uint8_t> serialized(const Block& block) {
  return {block.bytes().begin(), block.bytes().end()};
}

void rewrite_crc(std::vector<uint8_t>& bytes) {
  const auto crc = static_cast<uint32_t>(
      crc32(crc32(0L, Z_NULL, 0), bytes.data(), static_cast<uInt>(bytes.size() - 4)));
  std::memcpy(bytes.data() + bytes.size() - 4, &crc, 4);
}

}  // namespace

TEST_CASE("realistic frames round-trip through a block exactly", "[block]") {
  const Recording rec = realistic_recording(256, 120, 1);
  const auto block = encode(rec, 0, 256);
  CHECK(block->frames() == 256);
  CHECK(block->series() == 120);
  CHECK(block->first_tick() == rec.headers.front().tick);
  CHECK(block->last_tick() == rec.headers.back().tick);
  require_same(*block, rec, 0);
}

TEST_CASE("adversarial values round-trip through a block exactly", "[block]") {
  const Recording rec = adversarial_recording(300, 40, 2);
  require_same(*encode(rec, 0, 300), rec, 0);
}

TEST_CASE("a single-frame block round-trips", "[block]") {
  const Recording rec = adversarial_recording(1, 25, 3);
  require_same(*encode(rec, 0, 1), rec, 0);
}

TEST_CASE("a block with no series still records its ticks", "[block]") {
  const Recording rec = realistic_recording(50, 0, 4);
  const auto block = encode(rec, 0, 50);
  require_same(*block, rec, 0);
  const auto parsed = Block::parse(block->bytes());
  REQUIRE(parsed);
  require_same(*parsed->block, rec, 0);
}

TEST_CASE("tick gaps survive and time follows the tick grid", "[block]") {
  Recording rec = realistic_recording(200, 3, 5);
  for (size_t f = 100; f < rec.headers.size(); ++f) rec.headers[f].tick += 37;  // 37 missed ticks
  const auto block = encode(rec, 0, 200);
  require_same(*block, rec, 0);
  const uint64_t tick = rec.headers[150].tick;
  // Reads start 20-200 us late; the grid is projected from the least late read.
  CHECK(block->real_ns(tick) <= rec.headers[150].real_ns);
  CHECK(rec.headers[150].real_ns - block->real_ns(tick) <= 200'000);
  CHECK(block->real_ns(tick + 1) - block->real_ns(tick) == kRateNs);
  CHECK(block->mono_ns(tick) <= rec.headers[150].mono_ns);
}

TEST_CASE("a serialized block parses back to the same frames and bytes", "[block]") {
  const Recording rec = realistic_recording(256, 64, 6);
  const auto block = encode(rec, 0, 256);
  const auto parsed = Block::parse(block->bytes());
  REQUIRE(parsed);
  CHECK(parsed->consumed == block->bytes().size());
  CHECK(serialized(*parsed->block) == serialized(*block));
  require_same(*parsed->block, rec, 0);
}

TEST_CASE("concatenated blocks parse one after another", "[block]") {
  const Recording rec = realistic_recording(300, 10, 7);
  std::vector<uint8_t> file = serialized(*encode(rec, 0, 256));
  const std::vector<uint8_t> second = serialized(*encode(rec, 256, 44));
  file.insert(file.end(), second.begin(), second.end());
  const auto first_parsed = Block::parse(file);
  REQUIRE(first_parsed);
  const auto second_parsed = Block::parse(std::span(file).subspan(first_parsed->consumed));
  REQUIRE(second_parsed);
  require_same(*first_parsed->block, rec, 0);
  require_same(*second_parsed->block, rec, 256);
}

TEST_CASE("flipping any byte of a serialized block is detected", "[block][corruption]") {
  const Recording rec = realistic_recording(64, 12, 8);
  const std::vector<uint8_t> good = serialized(*encode(rec, 0, 64));
  std::mt19937_64 rng(8);
  for (size_t at = 0; at < good.size(); ++at) {
    std::vector<uint8_t> bad = good;
    bad[at] ^= static_cast<uint8_t>(1 + rng() % 255);
    INFO("byte " << at << " of " << good.size());
    const auto parsed = Block::parse(bad);
    CHECK_FALSE(parsed);
    CHECK_FALSE(parsed.error().empty());
  }
}

TEST_CASE("a corrupt payload with a recomputed CRC is rejected or decodes safely",
          "[block][corruption]") {
  const Recording rec = realistic_recording(64, 12, 9);
  const std::vector<uint8_t> good = serialized(*encode(rec, 0, 64));
  std::mt19937_64 rng(9);
  size_t rejected = 0;
  for (size_t at = 8; at + 4 < good.size(); ++at) {
    std::vector<uint8_t> bad = good;
    bad[at] ^= static_cast<uint8_t>(1 + rng() % 255);
    rewrite_crc(bad);
    const auto parsed = Block::parse(bad);
    if (!parsed) {
      ++rejected;
      continue;
    }
    std::vector<int64_t> column;  // whatever it holds, every column must decode
    for (uint32_t s = 0; s < parsed->block->series(); ++s) parsed->block->decode_series(s, column);
  }
  CHECK(rejected > 0);
}

TEST_CASE("truncated buffers are rejected with the sizes in the message", "[block][corruption]") {
  const Recording rec = realistic_recording(32, 8, 10);
  const std::vector<uint8_t> good = serialized(*encode(rec, 0, 32));
  for (size_t size = 0; size < good.size(); ++size) {
    const auto parsed = Block::parse(std::span(good).first(size));
    INFO("size " << size);
    CHECK_FALSE(parsed);
    CHECK_THAT(parsed.error(), Catch::Contains("truncated"));
  }
}

TEST_CASE("a block of an unknown version is refused by name", "[block]") {
  const Recording rec = realistic_recording(8, 2, 11);
  std::vector<uint8_t> bytes = serialized(*encode(rec, 0, 8));
  bytes[4] = 9;  // version field
  rewrite_crc(bytes);
  const auto parsed = Block::parse(bytes);
  CHECK_FALSE(parsed);
  CHECK_THAT(parsed.error(), Catch::Contains("unsupported version 9"));
}

TEST_CASE("encoding refuses ticks that do not increase", "[block]") {
  Recording rec = realistic_recording(4, 2, 12);
  rec.headers[2].tick = rec.headers[1].tick;
  CHECK_THROWS_AS(encode(rec, 0, 4), std::invalid_argument);
}
