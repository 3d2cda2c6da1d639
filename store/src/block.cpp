#include "flightrec/store/block.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "block_framing.h"
#include "flightrec/store/detail/bit_stream.h"
#include "flightrec/store/detail/column_codec.h"

namespace flightrec::store {
namespace {

using detail::get_le;
using detail::kCrcBytes;
using detail::put_le;

constexpr uint32_t kCheckpointEvery = 16;

// Fixed header layout after the shared framing (little-endian); see docs/STORAGE.md.
constexpr size_t kFramesAt = 12;
constexpr size_t kSeriesAt = 16;
constexpr size_t kFirstTickAt = 20;
constexpr size_t kLastTickAt = 28;
constexpr size_t kBaseMonoAt = 36;
constexpr size_t kBaseRealAt = 44;
constexpr size_t kRateAt = 52;
constexpr size_t kHeaderBytes = 60;
constexpr detail::FramingSpec kFraming{.magic = 0x4B425246,  // "FRBK" as little-endian bytes
                                       .magic_name = "FRBK",
                                       .version = kBlockVersion,
                                       // at least the tick column's size
                                       .min_bytes = kHeaderBytes + 1 + kCrcBytes};

void put_varint(std::vector<uint8_t>& out, uint32_t value) {
  while (value >= 0x80) {
    out.push_back(static_cast<uint8_t>(value | 0x80));
    value >>= 7;
  }
  out.push_back(static_cast<uint8_t>(value));
}

// Reads a LEB128 value below 2^32 from in[at, end); false if it runs past end or is too long.
bool get_varint(std::span<const uint8_t> in, size_t& at, size_t end, uint32_t& value) {
  uint64_t result = 0;
  for (unsigned shift = 0; shift < 35 && at < end; shift += 7) {
    const uint8_t byte = in[at++];
    result |= uint64_t{byte & 0x7Fu} << shift;
    if ((byte & 0x80) == 0) {
      if (result > std::numeric_limits<uint32_t>::max()) return false;
      value = static_cast<uint32_t>(result);
      return true;
    }
  }
  return false;
}

// Grid time with wrapping arithmetic: a corrupt-but-CRC-valid header must not cause UB.
int64_t on_grid(int64_t base, uint64_t ticks_after, int64_t rate) {
  return static_cast<int64_t>(static_cast<uint64_t>(base) +
                              ticks_after * static_cast<uint64_t>(rate));
}

}  // namespace

std::shared_ptr<const Block> Block::encode(std::span<const sampler::FrameHeader> frames,
                                           std::span<const int64_t> values, uint32_t series,
                                           int64_t rate_ns) {
  if (frames.empty() || frames.size() > kMaxBlockFrames || series > kMaxBlockSeries ||
      values.size() != frames.size() * series || rate_ns <= 0) {
    throw std::invalid_argument("Block::encode: frame count, series count or rate out of range");
  }
  const uint64_t first = frames.front().tick;
  std::vector<int64_t> column(frames.size());
  int64_t base_mono = std::numeric_limits<int64_t>::max();
  int64_t base_real = std::numeric_limits<int64_t>::max();
  for (size_t i = 0; i < frames.size(); ++i) {
    if (i > 0 && frames[i].tick <= frames[i - 1].tick) {
      throw std::invalid_argument("Block::encode: ticks must increase strictly");
    }
    const uint64_t after = frames[i].tick - first;
    if (after > uint64_t{std::numeric_limits<int64_t>::max()}) {
      throw std::invalid_argument("Block::encode: tick span does not fit in 63 bits");
    }
    column[i] = static_cast<int64_t>(after);
    const auto back = static_cast<uint64_t>(rate_ns) * after;
    base_mono =
        std::min(base_mono, static_cast<int64_t>(static_cast<uint64_t>(frames[i].mono_ns) - back));
    base_real =
        std::min(base_real, static_cast<int64_t>(static_cast<uint64_t>(frames[i].real_ns) - back));
  }

  detail::ColumnEncoder encoder;
  std::vector<uint8_t> payload;
  std::vector<uint32_t> sizes;
  sizes.reserve(size_t{series} + 1);
  auto encode_column = [&] {
    const size_t before = payload.size();
    encoder.encode(column, payload);
    sizes.push_back(static_cast<uint32_t>(payload.size() - before));
  };
  encode_column();
  for (uint32_t s = 0; s < series; ++s) {
    for (size_t i = 0; i < frames.size(); ++i) column[i] = values[i * series + s];
    encode_column();
  }

  auto block = std::shared_ptr<Block>(new Block());
  std::vector<uint8_t>& out = block->bytes_;
  out.reserve(kHeaderBytes + sizes.size() * 2 + payload.size() + kCrcBytes + detail::kReadPadding);
  out.resize(kHeaderBytes);
  for (const uint32_t size : sizes) put_varint(out, size);
  const size_t payload_at = out.size();
  out.insert(out.end(), payload.begin(), payload.end());
  const size_t total = out.size() + kCrcBytes;
  if (total > std::numeric_limits<uint32_t>::max()) {
    throw std::invalid_argument("Block::encode: block larger than 4 GiB");
  }
  detail::write_framing(out, kFraming, static_cast<uint32_t>(total));
  put_le<uint32_t>(out, kFramesAt, static_cast<uint32_t>(frames.size()));
  put_le<uint32_t>(out, kSeriesAt, series);
  put_le<uint64_t>(out, kFirstTickAt, first);
  put_le<uint64_t>(out, kLastTickAt, frames.back().tick);
  put_le<int64_t>(out, kBaseMonoAt, base_mono);
  put_le<int64_t>(out, kBaseRealAt, base_real);
  put_le<int64_t>(out, kRateAt, rate_ns);
  out.resize(total);
  detail::seal_crc(out);
  out.resize(total + detail::kReadPadding, 0);

  block->size_ = total;
  block->frames_ = static_cast<uint32_t>(frames.size());
  block->series_ = series;
  block->first_tick_ = first;
  block->last_tick_ = frames.back().tick;
  block->base_mono_ns_ = base_mono;
  block->base_real_ns_ = base_real;
  block->rate_ns_ = rate_ns;
  block->index_columns(kHeaderBytes, payload_at);
  return block;
}

Result<ParsedBlock> Block::parse(std::span<const uint8_t> bytes) {
  auto fail = [](std::string why) { return Error{"block: " + std::move(why)}; };
  const auto framing = detail::check_framing(bytes, kFraming);
  if (!framing) return fail(framing.error());
  const uint32_t total = *framing;

  auto block = std::shared_ptr<Block>(new Block());
  block->frames_ = get_le<uint32_t>(bytes, kFramesAt);
  block->series_ = get_le<uint32_t>(bytes, kSeriesAt);
  block->first_tick_ = get_le<uint64_t>(bytes, kFirstTickAt);
  block->last_tick_ = get_le<uint64_t>(bytes, kLastTickAt);
  block->base_mono_ns_ = get_le<int64_t>(bytes, kBaseMonoAt);
  block->base_real_ns_ = get_le<int64_t>(bytes, kBaseRealAt);
  block->rate_ns_ = get_le<int64_t>(bytes, kRateAt);
  if (block->frames_ == 0 || block->frames_ > kMaxBlockFrames) {
    return fail("frame count " + std::to_string(block->frames_) + " out of range");
  }
  if (block->series_ > kMaxBlockSeries || block->series_ >= total) {
    return fail("series count " + std::to_string(block->series_) + " out of range");
  }
  if (block->rate_ns_ <= 0) return fail("rate must be positive");
  if (block->last_tick_ < block->first_tick_) return fail("last tick before first tick");

  // Column sizes must account for the payload exactly.
  const size_t payload_end = total - kCrcBytes;
  size_t at = kHeaderBytes;
  uint64_t payload = 0;
  for (uint64_t c = 0; c <= block->series_; ++c) {
    uint32_t size = 0;
    if (!get_varint(bytes, at, payload_end, size)) {
      return fail("column " + std::to_string(c) + ": size varint malformed");
    }
    payload += size;
  }
  if (at + payload != payload_end) {
    return fail("column sizes add up to " + std::to_string(payload) + " bytes, payload holds " +
                std::to_string(payload_end - at));
  }
  block->bytes_.reserve(total + detail::kReadPadding);
  block->bytes_.assign(bytes.begin(), bytes.begin() + total);
  block->bytes_.resize(total + detail::kReadPadding, 0);
  block->size_ = total;
  block->index_columns(kHeaderBytes, at);

  // Decode every column once, so that a parsed block always decodes.
  std::vector<int64_t> scratch(block->frames_);
  if (!detail::decode_column(block->column(0), scratch.size(), scratch.data())) {
    return fail("tick column malformed");
  }
  for (size_t i = 0; i < scratch.size(); ++i) {
    const bool in_order = i == 0 ? scratch[i] == 0 : scratch[i] > scratch[i - 1];
    if (!in_order) return fail("ticks not strictly increasing from first_tick");
  }
  if (static_cast<uint64_t>(scratch.back()) != block->last_tick_ - block->first_tick_) {
    return fail("tick column disagrees with last_tick");
  }
  for (uint32_t s = 0; s < block->series_; ++s) {
    if (!detail::decode_column(block->column(s + 1), scratch.size(), scratch.data())) {
      return fail("series column " + std::to_string(s) + " malformed");
    }
  }
  return ParsedBlock{std::move(block), total};
}

void Block::index_columns(size_t sizes_at, size_t payload_at) {
  checkpoints_.clear();
  checkpoints_.reserve((size_t{series_} + 1) / kCheckpointEvery + 1);
  size_t at = sizes_at;
  size_t column_at = payload_at;
  const std::span<const uint8_t> all = bytes();
  for (size_t c = 0; c <= series_; ++c) {
    if (c % kCheckpointEvery == 0) {
      checkpoints_.push_back(
          Checkpoint{static_cast<uint32_t>(column_at), static_cast<uint32_t>(at)});
    }
    uint32_t size = 0;
    get_varint(all, at, payload_at, size);  // validated by encode() or parse()
    column_at += size;
  }
}

std::span<const uint8_t> Block::column(uint32_t index) const noexcept {
  const Checkpoint& checkpoint = checkpoints_[index / kCheckpointEvery];
  size_t at = checkpoint.size_at;
  size_t column_at = checkpoint.column_at;
  uint32_t size = 0;
  const std::span<const uint8_t> all = bytes();
  get_varint(all, at, size_, size);
  for (uint32_t c = index - index % kCheckpointEvery; c < index; ++c) {
    column_at += size;
    get_varint(all, at, size_, size);
  }
  return all.subspan(column_at, size);
}

size_t Block::memory_bytes() const noexcept {
  return sizeof(Block) + bytes_.capacity() + checkpoints_.capacity() * sizeof(Checkpoint);
}

int64_t Block::real_ns(uint64_t tick) const noexcept {
  return on_grid(base_real_ns_, tick - first_tick_, rate_ns_);
}
int64_t Block::mono_ns(uint64_t tick) const noexcept {
  return on_grid(base_mono_ns_, tick - first_tick_, rate_ns_);
}

void Block::decode_column_into(uint32_t index, int64_t* out) const noexcept {
  // encode() and parse() only ever build blocks whose every column decodes, so this cannot fail;
  // the fallback keeps memory defined should that invariant ever break.
  if (!detail::decode_column(column(index), frames_, out)) {
    std::fill(out, out + frames_, std::numeric_limits<int64_t>::min());
  }
}

void Block::decode_ticks(std::vector<uint64_t>& out) const {
  out.resize(frames_);
  // int64_t and uint64_t may alias: decode the relative ticks in place, then rebase them.
  decode_column_into(0, reinterpret_cast<int64_t*>(out.data()));
  for (uint64_t& tick : out) tick += first_tick_;
}

void Block::decode_series(uint32_t series_index, std::vector<int64_t>& out) const {
  out.resize(frames_);
  decode_series(series_index, std::span<int64_t>(out));
}

void Block::decode_series(uint32_t series_index, std::span<int64_t> out) const {
  if (series_index >= series_ || out.size() != frames_) {
    throw std::out_of_range("Block::decode_series: series index or output size out of range");
  }
  decode_column_into(series_index + 1, out.data());
}

}  // namespace flightrec::store
