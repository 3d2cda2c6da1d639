#include "flightrec/store/detail/column_codec.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "flightrec/sampler/series.h"
#include "flightrec/store/detail/bit_stream.h"

using flightrec::sampler::kAbsent;
using flightrec::store::detail::ColumnEncoder;
using flightrec::store::detail::decode_column;
using flightrec::store::detail::kReadPadding;

namespace {

constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

std::vector<uint8_t> encoded(const std::vector<int64_t>& values) {
  std::vector<uint8_t> bytes;
  ColumnEncoder().encode(values, bytes);
  return bytes;
}

std::vector<int64_t> round_trip(const std::vector<int64_t>& values) {
  std::vector<uint8_t> bytes = encoded(values);
  const size_t size = bytes.size();
  bytes.resize(size + kReadPadding, 0);
  std::vector<int64_t> out(values.size(), 12345);
  REQUIRE(decode_column(std::span(bytes).first(size), values.size(), out.data()));
  return out;
}

}  // namespace

TEST_CASE("a column of kAbsent encodes to nothing and decodes to kAbsent", "[codec]") {
  const std::vector<int64_t> absent(256, kAbsent);
  CHECK(encoded(absent).empty());
  CHECK(round_trip(absent) == absent);
}

TEST_CASE("constant and linear columns cost a few bytes whatever their length", "[codec]") {
  std::vector<int64_t> constant(4096, 987654321);
  std::vector<int64_t> linear(4096);
  for (size_t i = 0; i < linear.size(); ++i) linear[i] = 1'000'000 + 7 * static_cast<int64_t>(i);
  CHECK(encoded(constant).size() <= 8);
  CHECK(encoded(linear).size() <= 12);
  CHECK(round_trip(constant) == constant);
  CHECK(round_trip(linear) == linear);
}

TEST_CASE("int64 extremes and wrapping deltas round-trip exactly", "[codec]") {
  const std::vector<int64_t> values{kMax,     kMin + 1, kMax, 0,    -1,   kMax - 1,
                                    kMin + 1, kAbsent,  kMax, kMin, kMin, 42};
  // kMin is kAbsent: it round-trips as kAbsent, which is the same bit pattern.
  CHECK(round_trip(values) == values);
  const std::vector<int64_t> flip{kMin + 1, kMax, kMin + 1, kMax, kMin + 1, kMax};
  CHECK(round_trip(flip) == flip);
}

TEST_CASE("single values, two values and kAbsent at the edges round-trip", "[codec]") {
  for (const std::vector<int64_t>& values :
       {std::vector<int64_t>{5}, std::vector<int64_t>{kMax}, std::vector<int64_t>{-3, 9},
        std::vector<int64_t>{kAbsent, 1, 2, 3}, std::vector<int64_t>{1, 2, 3, kAbsent},
        std::vector<int64_t>{kAbsent, 7, kAbsent}}) {
    CHECK(round_trip(values) == values);
  }
}

TEST_CASE("random columns of every scale round-trip", "[codec]") {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 300; ++trial) {
    const size_t length = 1 + rng() % 600;
    const unsigned scale = static_cast<unsigned>(rng() % 65);
    const double absent_share = (rng() % 3 == 0) ? 0.2 : 0.0;
    std::vector<int64_t> values(length);
    int64_t value = static_cast<int64_t>(rng());
    for (auto& v : values) {
      const uint64_t step = scale == 64 ? rng() : rng() & ((uint64_t{1} << scale) - 1);
      value = static_cast<int64_t>(static_cast<uint64_t>(value) + step - (step >> 1));
      v = std::bernoulli_distribution(absent_share)(rng) ? kAbsent : value;
    }
    INFO("trial " << trial << " length " << length << " scale " << scale);
    CHECK(round_trip(values) == values);
  }
}

TEST_CASE("sparse changes cost far less than one bit per value", "[codec]") {
  std::vector<int64_t> steps(4096, 100);
  for (size_t i = 1000; i < steps.size(); ++i) steps[i] = 160;
  for (size_t i = 3000; i < steps.size(); ++i) steps[i] = 150;
  CHECK(encoded(steps).size() * 8 < steps.size() / 8);
  CHECK(round_trip(steps) == steps);
}

TEST_CASE("decoding rejects a column of the wrong length or with trailing bytes", "[codec]") {
  std::vector<int64_t> values(100);
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<int64_t>(i * i);
  std::vector<uint8_t> bytes = encoded(values);
  const size_t size = bytes.size();
  bytes.resize(size + 1 + kReadPadding, 0);
  std::vector<int64_t> out(200);
  CHECK(decode_column(std::span(bytes).first(size), 100, out.data()));
  CHECK_FALSE(decode_column(std::span(bytes).first(size + 1), 100, out.data()));
  CHECK_FALSE(decode_column(std::span(bytes).first(size - 1), 100, out.data()));
  CHECK_FALSE(decode_column(std::span(bytes).first(size), 200, out.data()));
}
