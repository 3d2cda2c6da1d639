#include "flightrec/exporter/exposition/gzip.h"

#include <zlib.h>

#include <algorithm>
#include <new>
#include <stdexcept>

namespace flightrec::exporter::exposition {
namespace {

// windowBits 15 (32 KiB, the maximum) + 16 asks zlib for a gzip wrapper instead of zlib's own.
constexpr int kGzipWindowBits = 15 + 16;
constexpr int kMemoryLevel = 8;  // zlib's default
// Level 1: scrape bodies are repetitive text that level 1 already shrinks ~10x, at a fraction of
// the default level's CPU, and every scrape pays it (bench/scrape_vs_node_exporter.sh).
constexpr int kLevel = Z_BEST_SPEED;

// Owns a deflate stream so that it is ended on every path, including exceptions.
class Deflater {
 public:
  Deflater() {
    const int status = deflateInit2(&stream_, kLevel, Z_DEFLATED, kGzipWindowBits, kMemoryLevel,
                                    Z_DEFAULT_STRATEGY);
    if (status == Z_MEM_ERROR) throw std::bad_alloc();
    if (status != Z_OK) throw std::logic_error("zlib deflateInit2 rejected its parameters");
  }
  Deflater(const Deflater&) = delete;
  Deflater& operator=(const Deflater&) = delete;
  ~Deflater() { deflateEnd(&stream_); }

  z_stream& stream() { return stream_; }

 private:
  z_stream stream_{};
};

}  // namespace

void gzip(std::string_view plain, std::string& out) {
  Deflater deflater;
  z_stream& stream = deflater.stream();
  // deflateBound is enough for one Z_FINISH call, for inputs zlib can size in one uLong.
  out.resize(deflateBound(&stream, static_cast<uLong>(plain.size())));

  // zlib counts in uInt: feed and drain at most 1 GiB at a time, however large the body.
  constexpr std::size_t kMaxStep = std::size_t{1} << 30;
  std::size_t consumed = 0;
  std::size_t produced = 0;
  int status = Z_OK;
  while (status != Z_STREAM_END) {
    if (produced == out.size()) out.resize(out.size() * 2 + 64);
    const std::size_t in_step = std::min(plain.size() - consumed, kMaxStep);
    const std::size_t out_step = std::min(out.size() - produced, kMaxStep);
    // zlib's input pointer is not const-qualified but deflate never writes through it.
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(plain.data() + consumed));
    stream.avail_in = static_cast<uInt>(in_step);
    stream.next_out = reinterpret_cast<Bytef*>(out.data() + produced);
    stream.avail_out = static_cast<uInt>(out_step);
    const bool last_input = consumed + in_step == plain.size();
    status = deflate(&stream, last_input ? Z_FINISH : Z_NO_FLUSH);
    if (status == Z_STREAM_ERROR) throw std::logic_error("zlib deflate stream state corrupted");
    consumed += in_step - stream.avail_in;
    produced += out_step - stream.avail_out;
  }
  out.resize(produced);
}

std::string gzip(std::string_view plain) {
  std::string out;
  gzip(plain, out);
  return out;
}

}  // namespace flightrec::exporter::exposition
