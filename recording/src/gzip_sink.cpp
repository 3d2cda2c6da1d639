#include "flightrec/recording/gzip_sink.h"

#include <zlib.h>

#include <stdexcept>

namespace flightrec::recording {

namespace {

constexpr int kGzipWindowBits = 15 + 16;  // +16: gzip wrapper instead of zlib's
constexpr size_t kOutPiece = 64 << 10;

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

}  // namespace flightrec::recording
