#include "flightrec/recording/detail/metadata_codec.h"

#include <bit>

#include "flightrec/recording/detail/byte_io.h"

namespace flightrec::recording::detail {

namespace {

void put_string(std::string& out, std::string_view text) {
  put_le(out, static_cast<uint32_t>(text.size()));
  out.append(text);
}

void put_labels(std::string& out, const Labels& labels) {
  put_le(out, static_cast<uint32_t>(labels.size()));
  for (const auto& [name, value] : labels) {
    put_string(out, name);
    put_string(out, value);
  }
}

// Each label takes at least 8 bytes (two empty strings): a count larger than the remaining bytes
// allow is corrupt, and rejecting it first keeps a bad count from reserving huge vectors.
constexpr size_t kMinLabelBytes = 8;
constexpr size_t kMinSeriesBytes = 4 + 4 + 4 + 1 + 8 + 4;

bool read_labels(ByteReader& in, Labels& out) {
  const auto count = in.integer<uint32_t>();
  if (!in.ok() || count > in.remaining() / kMinLabelBytes) return false;
  out.reserve(count);
  for (uint32_t i = 0; i < count && in.ok(); ++i) {
    auto name = in.string();
    auto value = in.string();
    out.emplace_back(std::move(name), std::move(value));
  }
  return in.ok();
}

}  // namespace

std::string encode_metadata(const Metadata& metadata) {
  std::string out;
  put_le(out, metadata.rate_ns);
  put_string(out, metadata.host);
  put_string(out, metadata.flightrec_version);
  put_labels(out, metadata.extra);
  put_le(out, static_cast<uint32_t>(metadata.series.size()));
  for (const auto& series : metadata.series) {
    put_string(out, series.name);
    put_labels(out, series.labels);
    put_string(out, series.unit);
    put_le(out, static_cast<uint8_t>(series.kind));
    put_le(out, std::bit_cast<uint64_t>(series.scale));
    put_string(out, series.source);
  }
  return out;
}

Result<Metadata> decode_metadata(std::string_view payload) {
  ByteReader in(payload);
  Metadata out;
  out.rate_ns = in.integer<int64_t>();
  out.host = in.string();
  out.flightrec_version = in.string();
  if (!read_labels(in, out.extra)) return Error{"metadata: extra fields run past the section"};
  if (out.rate_ns <= 0)
    return Error{"metadata: rate_ns " + std::to_string(out.rate_ns) + " is not > 0"};
  const auto count = in.integer<uint32_t>();
  if (!in.ok() || count > in.remaining() / kMinSeriesBytes) {
    return Error{"metadata: series count runs past the section"};
  }
  out.series.resize(count);
  for (uint32_t i = 0; i < count; ++i) {
    auto& series = out.series[i];
    series.name = in.string();
    if (!read_labels(in, series.labels)) {
      return Error{"metadata: series " + std::to_string(i) + " runs past the section"};
    }
    series.unit = in.string();
    const auto kind = in.integer<uint8_t>();
    series.scale = std::bit_cast<double>(in.integer<uint64_t>());
    series.source = in.string();
    if (!in.ok()) return Error{"metadata: series " + std::to_string(i) + " runs past the section"};
    if (kind > static_cast<uint8_t>(sampler::SeriesKind::gauge)) {
      return Error{"metadata: series " + std::to_string(i) + " has unknown kind " +
                   std::to_string(kind)};
    }
    series.kind = static_cast<sampler::SeriesKind>(kind);
  }
  if (in.remaining() != 0) {
    return Error{"metadata: " + std::to_string(in.remaining()) + " unexpected bytes at the end"};
  }
  return out;
}

}  // namespace flightrec::recording::detail
