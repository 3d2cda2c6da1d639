#include "flightrec/store/detail/column_codec.h"

#include <algorithm>
#include <array>
#include <bit>
#include <limits>

#include "flightrec/sampler/series.h"
#include "flightrec/store/detail/bit_stream.h"

namespace flightrec::store::detail {
namespace {

using sampler::kAbsent;

// Field widths of the column header (see docs/STORAGE.md).
constexpr unsigned kOrderBits = 2;
constexpr unsigned kCodingBits = 2;
constexpr unsigned kWidthBits = 7;     // a bit width 0..64
constexpr unsigned kCountBits = 16;    // sparse: number of non-zero residuals
constexpr unsigned kGapWidthBits = 5;  // sparse: bit width of a gap, 0..16
constexpr unsigned kEscapeWidth = 64;  // token '111': a full 64-bit residual
constexpr unsigned kMaxOrder = 2;
constexpr unsigned kBuckets = 3;

enum class Coding : uint8_t {
  all_zero = 0,  // every residual is 0: constant (order 1) or linear (order 2) column
  dense = 1,     // one prefix-coded token per residual
  sparse = 2,    // only non-zero residuals, each with the gap since the previous one
};

using Widths = std::array<unsigned, kBuckets>;
using WidthHistogram = std::array<uint32_t, 65>;  // residual count by std::bit_width of zigzag

// Token k (k < 3) is k one-bits then a zero-bit, followed by widths[k] payload bits; '111' is
// followed by 64 bits. Cost of each class in bits:
constexpr std::array<unsigned, kBuckets + 1> kPrefixBits{1, 2, 3, 3};
constexpr std::array<uint64_t, kBuckets + 1> kPrefixCode{0b0, 0b01, 0b011, 0b111};

struct Buckets {
  uint64_t bits = std::numeric_limits<uint64_t>::max();
  Widths widths{};
};

// The cheapest three token widths for residuals with this histogram (bucket 0 skipped when
// `without_zero`, as sparse coding never stores a zero residual). Optimal widths always equal the
// width of some residual, so only present widths are tried; with many distinct widths (noisy
// data) a coarse ladder keeps the search small.
Buckets best_buckets(const WidthHistogram& hist, bool without_zero) {
  std::array<uint64_t, 65> at_most{};  // residuals with width <= w
  uint64_t running = 0;
  std::array<unsigned, 65> candidates{};
  size_t distinct = 0;
  for (unsigned w = 0; w <= 64; ++w) {
    const uint32_t here = (without_zero && w == 0) ? 0 : hist[w];
    running += here;
    at_most[w] = running;
    if (here != 0) candidates[distinct++] = w;
  }
  const uint64_t total = running;
  if (distinct > 16) {
    constexpr std::array<unsigned, 16> kLadder{0,  1,  2,  3,  4,  6,  8,  10,
                                               12, 16, 20, 24, 32, 40, 48, 64};
    std::copy(kLadder.begin(), kLadder.end(), candidates.begin());
    distinct = kLadder.size();
  }
  Buckets best;
  if (total == 0) return Buckets{0, {0, 0, 0}};
  for (size_t a = 0; a < distinct; ++a) {
    const unsigned w0 = candidates[a];
    const uint64_t in0 = at_most[w0];
    const uint64_t cost0 = in0 * (kPrefixBits[0] + w0);
    for (size_t b = a; b < distinct; ++b) {
      const unsigned w1 = candidates[b];
      const uint64_t in1 = at_most[w1];
      const uint64_t cost1 = cost0 + (in1 - in0) * (kPrefixBits[1] + w1);
      for (size_t c = b; c < distinct; ++c) {
        const unsigned w2 = candidates[c];
        const uint64_t in2 = at_most[w2];
        const uint64_t cost = cost1 + (in2 - in1) * (kPrefixBits[2] + w2) +
                              (total - in2) * (kPrefixBits[3] + kEscapeWidth);
        if (cost < best.bits) best = Buckets{cost, {w0, w1, w2}};
      }
    }
  }
  return best;
}

// Statistics of one candidate order over the present values, gathered in a single pass.
struct OrderStats {
  WidthHistogram widths{};
  uint64_t seed_bits = 0;
  uint32_t residuals = 0;
  uint32_t max_gap = 0;    // longest run of zero residuals before a non-zero one
  uint32_t next_free = 0;  // index just after the last non-zero residual
};

struct Plan {
  unsigned order = 1;
  Coding coding = Coding::all_zero;
  Widths widths{};
  unsigned gap_width = 0;
  uint32_t nonzero = 0;  // residuals that are not zero (sparse coding stores only those)
  uint64_t bits = std::numeric_limits<uint64_t>::max();
};

Plan plan_for(unsigned order, const OrderStats& stats) {
  Plan plan;
  plan.order = order;
  const uint64_t fixed = kOrderBits + stats.seed_bits + kCodingBits;
  const uint32_t zeros = stats.widths[0];
  if (zeros == stats.residuals) {
    plan.bits = fixed;
    return plan;
  }
  const Buckets dense = best_buckets(stats.widths, false);
  plan.coding = Coding::dense;
  plan.widths = dense.widths;
  plan.bits = fixed + kBuckets * kWidthBits + dense.bits;

  const Buckets nonzero = best_buckets(stats.widths, true);
  const auto gap_width = static_cast<unsigned>(std::bit_width(stats.max_gap));
  const uint64_t sparse_bits = fixed + kCountBits + kGapWidthBits + kBuckets * kWidthBits +
                               uint64_t{stats.residuals - zeros} * gap_width + nonzero.bits;
  if (sparse_bits < plan.bits) {
    plan.coding = Coding::sparse;
    plan.widths = nonzero.widths;
    plan.gap_width = gap_width;
    plan.nonzero = stats.residuals - zeros;
    plan.bits = sparse_bits;
  }
  return plan;
}

unsigned width_of(uint64_t zigzagged) { return static_cast<unsigned>(std::bit_width(zigzagged)); }

// Residual i of the given order: the order-th difference, or for the first `order` values the
// lower differences that seed the integration (value, then first delta). Arithmetic wraps, so
// any int64 sequence, INT64_MIN -> INT64_MAX included, is lossless.
struct Differencer {
  uint64_t previous = 0;
  uint64_t previous_delta = 0;
  std::array<uint64_t, kMaxOrder + 1> at(size_t i, uint64_t value) {
    const uint64_t delta = value - previous;
    const std::array<uint64_t, kMaxOrder + 1> result{value, i >= 1 ? delta : value,
                                                     i >= 2   ? delta - previous_delta
                                                     : i == 1 ? delta
                                                              : value};
    previous = value;
    previous_delta = delta;
    return result;
  }
};

// Gathers the residual statistics of every order in one pass and picks the cheapest coding.
Plan choose_plan(std::span<const uint64_t> present) {
  std::array<OrderStats, kMaxOrder + 1> stats{};
  Differencer diff;
  for (size_t i = 0; i < present.size(); ++i) {
    const auto residuals = diff.at(i, present[i]);
    for (unsigned order = 0; order <= kMaxOrder; ++order) {
      OrderStats& s = stats[order];
      const uint64_t zz = zigzag(residuals[order]);
      if (i < order) {
        s.seed_bits += kWidthBits + width_of(zz);
        continue;
      }
      ++s.widths[width_of(zz)];
      if (zz != 0) {
        s.max_gap = std::max(s.max_gap, s.residuals - s.next_free);
        s.next_free = s.residuals + 1;
      }
      ++s.residuals;
    }
  }
  Plan plan;
  for (unsigned order = 0; order <= kMaxOrder; ++order) {
    const Plan candidate = plan_for(order, stats[order]);
    if (candidate.bits < plan.bits) plan = candidate;
  }
  return plan;
}

void write_token(BitWriter& out, const Widths& widths, uint64_t residual) {
  const unsigned width = width_of(residual);
  for (unsigned k = 0; k < kBuckets; ++k) {
    if (width <= widths[k]) {
      out.write(kPrefixCode[k], kPrefixBits[k]);
      out.write(residual, widths[k]);
      return;
    }
  }
  out.write(kPrefixCode[kBuckets], kPrefixBits[kBuckets]);
  out.write(residual, kEscapeWidth);
}

void write_widths(BitWriter& out, const Widths& widths) {
  for (const unsigned w : widths) out.write(w, kWidthBits);
}

}  // namespace

void ColumnEncoder::encode(std::span<const int64_t> values, std::vector<uint8_t>& out) {
  present_.clear();
  for (const int64_t v : values) {
    if (v != kAbsent) present_.push_back(static_cast<uint64_t>(v));
  }
  if (present_.empty()) return;
  const size_t present = present_.size();
  // Most /proc columns do not move within a block: skip the search for them. The default plan,
  // order 1 with all residuals zero, is the constant column.
  const bool constant = std::all_of(present_.begin(), present_.end(),
                                    [first = present_[0]](uint64_t v) { return v == first; });
  const Plan plan = constant ? Plan{} : choose_plan(present_);

  BitWriter bits(out);
  const bool has_absent = present != values.size();
  bits.write(uint64_t{has_absent}, 1);
  if (has_absent) {
    for (const int64_t v : values) bits.write(uint64_t{v != kAbsent}, 1);
  }
  bits.write(plan.order, kOrderBits);
  Differencer seeds;
  for (size_t i = 0; i < std::min<size_t>(plan.order, present); ++i) {
    const uint64_t zz = zigzag(seeds.at(i, present_[i])[i]);
    bits.write(width_of(zz), kWidthBits);
    bits.write(zz, width_of(zz));
  }
  bits.write(static_cast<uint64_t>(plan.coding), kCodingBits);
  if (plan.coding != Coding::all_zero) {
    if (plan.coding == Coding::sparse) {
      bits.write(plan.nonzero, kCountBits);
      bits.write(plan.gap_width, kGapWidthBits);
    }
    write_widths(bits, plan.widths);
    Differencer diff_again;
    uint32_t gap = 0;
    for (size_t i = 0; i < present; ++i) {
      const uint64_t zz = zigzag(diff_again.at(i, present_[i])[plan.order]);
      if (i < plan.order) continue;
      if (plan.coding == Coding::dense) {
        write_token(bits, plan.widths, zz);
      } else if (zz == 0) {
        ++gap;
      } else {
        bits.write(gap, plan.gap_width);
        write_token(bits, plan.widths, zz);
        gap = 0;
      }
    }
  }
  bits.finish();
}

namespace {

// Rebuilds values from residuals of a fixed order.
template <unsigned Order>
class Integrator {
 public:
  explicit Integrator(const std::array<uint64_t, kMaxOrder>& seeds, size_t seeded) {
    if (seeded >= 1) value_ = seeds[0];
    if (seeded >= 2) {
      delta_ = seeds[1];
      value_ += delta_;
    }
  }
  uint64_t next(uint64_t residual) noexcept {
    if constexpr (Order == 0) {
      value_ = residual;
    } else if constexpr (Order == 1) {
      value_ += residual;
    } else {
      delta_ += residual;
      value_ += delta_;
    }
    return value_;
  }

 private:
  uint64_t value_ = 0;
  uint64_t delta_ = 0;
};

struct TokenShape {
  unsigned prefix = 0;
  unsigned width = 0;
  uint64_t mask = 0;
};

// Token shapes indexed by the next three bits of the stream.
std::array<TokenShape, 8> token_table(const Widths& widths) {
  std::array<TokenShape, 8> table{};
  for (unsigned bits = 0; bits < 8; ++bits) {
    unsigned k = 0;
    while (k < kBuckets && ((bits >> k) & 1) != 0) ++k;
    const unsigned width = k < kBuckets ? widths[k] : kEscapeWidth;
    table[bits] = TokenShape{kPrefixBits[k], width, low_bits_mask(width)};
  }
  return table;
}

uint64_t read_token(BitReader& in, const std::array<TokenShape, 8>& table) {
  const uint64_t word = in.peek();
  const TokenShape& shape = table[word & 7];
  if (shape.prefix + shape.width <= 57) {
    in.skip(shape.prefix + shape.width);
    return unzigzag((word >> shape.prefix) & shape.mask);
  }
  in.skip(shape.prefix);
  return unzigzag(in.read(shape.width));
}

bool read_widths(BitReader& in, Widths& widths) {
  for (unsigned& w : widths) {
    w = static_cast<unsigned>(in.read(kWidthBits));
    if (w > 64) return false;
  }
  return true;
}

template <unsigned Order>
bool decode_residuals(BitReader& in, Coding coding, const std::array<uint64_t, kMaxOrder>& seeds,
                      size_t seeded, size_t present, int64_t* out) {
  Integrator<Order> values(seeds, seeded);
  const size_t residuals = present - seeded;
  int64_t* next = out + seeded;
  if (coding == Coding::all_zero) {
    for (size_t i = 0; i < residuals; ++i) next[i] = static_cast<int64_t>(values.next(0));
    return true;
  }
  size_t nonzero = residuals;
  unsigned gap_width = 0;
  if (coding == Coding::sparse) {
    nonzero = in.read(kCountBits);
    gap_width = static_cast<unsigned>(in.read(kGapWidthBits));
    if (nonzero > residuals || gap_width > 16) return false;
  }
  Widths widths{};
  if (!read_widths(in, widths)) return false;
  const auto table = token_table(widths);
  if (coding == Coding::dense) {
    for (size_t i = 0; i < residuals; ++i) {
      if (in.overran()) return false;
      next[i] = static_cast<int64_t>(values.next(read_token(in, table)));
    }
    return true;
  }
  size_t i = 0;
  for (size_t k = 0; k < nonzero; ++k) {
    if (in.overran()) return false;
    const size_t gap = in.read(gap_width);
    if (gap >= residuals - i) return false;
    for (const size_t end = i + gap; i < end; ++i) next[i] = static_cast<int64_t>(values.next(0));
    next[i++] = static_cast<int64_t>(values.next(read_token(in, table)));
  }
  for (; i < residuals; ++i) next[i] = static_cast<int64_t>(values.next(0));
  return true;
}

bool present_at(std::span<const uint8_t> bytes, size_t index) {
  const size_t bit = 1 + index;  // the bitmap follows the has_absent bit
  return ((bytes[bit >> 3] >> (bit & 7)) & 1) != 0;
}

}  // namespace

bool decode_column(std::span<const uint8_t> bytes, size_t count, int64_t* out) {
  if (bytes.empty()) {
    std::fill(out, out + count, kAbsent);
    return true;
  }
  if (count == 0 || count > kMaxColumnValues) return false;
  BitReader in(bytes.data(), bytes.size() * 8);
  const bool has_absent = in.read(1) != 0;
  size_t present = count;
  if (has_absent) {
    present = 0;
    for (size_t left = count; left > 0;) {
      if (in.overran()) return false;
      const auto chunk = static_cast<unsigned>(std::min<size_t>(left, 56));
      present += static_cast<size_t>(std::popcount(in.read(chunk)));
      left -= chunk;
    }
  }
  if (in.overran()) return false;
  if (present > 0) {
    const auto order = static_cast<unsigned>(in.read(kOrderBits));
    if (order > kMaxOrder) return false;
    std::array<uint64_t, kMaxOrder> seeds{};
    const size_t seeded = std::min<size_t>(order, present);
    for (size_t j = 0; j < seeded; ++j) {
      if (in.overran()) return false;
      const auto width = static_cast<unsigned>(in.read(kWidthBits));
      if (width > 64) return false;
      seeds[j] = unzigzag(in.read(width));
    }
    if (seeded >= 1) out[0] = static_cast<int64_t>(seeds[0]);
    if (seeded >= 2) out[1] = static_cast<int64_t>(seeds[0] + seeds[1]);
    const auto coding = static_cast<Coding>(in.read(kCodingBits));
    if (coding > Coding::sparse || in.overran()) return false;
    bool ok = false;
    switch (order) {
      case 0:
        ok = decode_residuals<0>(in, coding, seeds, seeded, present, out);
        break;
      case 1:
        ok = decode_residuals<1>(in, coding, seeds, seeded, present, out);
        break;
      default:
        ok = decode_residuals<2>(in, coding, seeds, seeded, present, out);
        break;
    }
    if (!ok) return false;
  }
  // Canonical length: the column ends in the byte holding its last bit.
  if (in.overran() || (in.position() + 7) / 8 != bytes.size()) return false;
  if (has_absent) {
    size_t from = present;
    for (size_t i = count; i-- > 0;) {
      out[i] = present_at(bytes, i) ? out[--from] : kAbsent;
    }
  }
  return true;
}

}  // namespace flightrec::store::detail
