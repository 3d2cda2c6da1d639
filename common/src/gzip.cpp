#include "flightrec/common/gzip.h"

#include <zlib.h>

#include <algorithm>
#include <new>
#include <stdexcept>

namespace flightrec {
namespace {

// windowBits 15 (32 KiB, the maximum) + 16 asks zlib for a gzip wrapper instead of zlib's own.
constexpr int kGzipWindowBits = 15 + 16;
constexpr int kMemoryLevel = 8;  // zlib's default
constexpr size_t kOutPiece = 64 << 10;
// zlib counts in uInt: feed it at most 1 GiB at a time, however large the input.
constexpr size_t kMaxInPiece = size_t{1} << 30;

}  // namespace

struct GzipWriter::Stream {
  z_stream z{};
};

GzipWriter::GzipWriter(ByteSink downstream)
    : stream_(std::make_unique<Stream>()), downstream_(std::move(downstream)) {
  const int status = deflateInit2(&stream_->z, Z_BEST_SPEED, Z_DEFLATED, kGzipWindowBits,
                                  kMemoryLevel, Z_DEFAULT_STRATEGY);
  if (status == Z_MEM_ERROR) throw std::bad_alloc();
  if (status != Z_OK) throw std::logic_error("zlib deflateInit2 rejected its parameters");
}

GzipWriter::~GzipWriter() { deflateEnd(&stream_->z); }

bool GzipWriter::deflate_piece(std::string_view bytes, int flush) {
  z_stream& z = stream_->z;
  // zlib's input pointer is not const-qualified but deflate never writes through it.
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  z.avail_in = static_cast<uInt>(bytes.size());
  out_.resize(kOutPiece);
  int status = Z_OK;
  do {
    z.next_out = reinterpret_cast<Bytef*>(out_.data());
    z.avail_out = static_cast<uInt>(out_.size());
    status = deflate(&z, flush);
    if (status == Z_STREAM_ERROR) throw std::logic_error("zlib deflate stream state corrupted");
    const size_t produced = out_.size() - z.avail_out;
    if (produced > 0) ok_ = downstream_(std::string_view(out_.data(), produced));
    // Output filled the buffer: zlib may hold more. Finishing: until the trailer is out.
  } while (ok_ &&
           (z.avail_in > 0 || z.avail_out == 0 || (flush == Z_FINISH && status != Z_STREAM_END)));
  return ok_;
}

bool GzipWriter::write(std::string_view bytes) {
  while (ok_ && !bytes.empty()) {
    const size_t piece = std::min(bytes.size(), kMaxInPiece);
    deflate_piece(bytes.substr(0, piece), Z_NO_FLUSH);
    bytes.remove_prefix(piece);
  }
  return ok_;
}

bool GzipWriter::finish() { return ok_ && deflate_piece({}, Z_FINISH); }

void gzip(std::string_view plain, std::string& out) {
  out.clear();
  GzipWriter writer([&out](std::string_view bytes) {
    out += bytes;
    return true;
  });
  writer.write(plain);
  writer.finish();
}

std::string gzip(std::string_view plain) {
  std::string out;
  gzip(plain, out);
  return out;
}

}  // namespace flightrec
