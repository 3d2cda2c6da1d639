#include "flightrec/recording/gzip_sink.h"

#include <zlib.h>

#include <stdexcept>

namespace flightrec::recording {

namespace {

constexpr int kGzipWindowBits = 15 + 16;  // +16: gzip wrapper instead of zlib's
constexpr size_t kOutPiece = 64 << 10;

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if ((a[i] | 0x20) != (b[i] | 0x20)) return false;
  }
  return true;
}

}  // namespace

struct GzipSink::Stream {
  z_stream z{};
};

GzipSink::GzipSink(Sink downstream)
    : stream_(std::make_unique<Stream>()), downstream_(std::move(downstream)) {
  // Level 1: /dump is bounded by CPU on small machines; JSON and CSV still shrink ~5-10x.
  if (deflateInit2(&stream_->z, 1, Z_DEFLATED, kGzipWindowBits, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    throw std::runtime_error("gzip: cannot initialise zlib");
  }
}

GzipSink::~GzipSink() { deflateEnd(&stream_->z); }

bool GzipSink::deflate_all(std::string_view bytes, int flush) {
  auto& z = stream_->z;
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  z.avail_in = static_cast<uInt>(bytes.size());
  int status = Z_OK;
  do {
    out_.resize(kOutPiece);
    z.next_out = reinterpret_cast<Bytef*>(out_.data());
    z.avail_out = static_cast<uInt>(out_.size());
    status = deflate(&z, flush);
    out_.resize(out_.size() - z.avail_out);
    if (!out_.empty() && ok_) ok_ = downstream_(out_);
  } while (ok_ &&
           (z.avail_in > 0 || z.avail_out == 0 || (flush == Z_FINISH && status != Z_STREAM_END)));
  return ok_;
}

bool GzipSink::write(std::string_view bytes) {
  // zlib takes uInt lengths: feed big inputs in pieces.
  while (ok_ && !bytes.empty()) {
    const size_t piece = std::min<size_t>(bytes.size(), 1u << 30);
    deflate_all(bytes.substr(0, piece), Z_NO_FLUSH);
    bytes.remove_prefix(piece);
  }
  return ok_;
}

bool GzipSink::finish() { return ok_ && deflate_all({}, Z_FINISH); }

bool accepts_gzip_encoding(std::string_view accept_encoding) {
  while (!accept_encoding.empty()) {
    const size_t comma = accept_encoding.find(',');
    std::string_view item = accept_encoding.substr(0, comma);
    accept_encoding = comma == std::string_view::npos ? "" : accept_encoding.substr(comma + 1);
    const size_t semicolon = item.find(';');
    if (!iequals(trim(item.substr(0, semicolon)), "gzip")) continue;
    if (semicolon == std::string_view::npos) return true;
    const auto parameter = trim(item.substr(semicolon + 1));
    // q=0, q=0.0, q=0.00, q=0.000 refuse it; any other weight accepts it.
    if (!(parameter.starts_with("q=") || parameter.starts_with("Q=")) ||
        parameter.substr(2).find_first_not_of("0.") != std::string_view::npos) {
      return true;
    }
    return false;
  }
  return false;
}

}  // namespace flightrec::recording
