#pragma once
// gzip (RFC 1952) through zlib at level 1, for /metrics, /dump and the viewer's page alike: the
// bodies are repetitive text that level 1 already shrinks ~5-10x, at a fraction of the default
// level's CPU, and every scrape or dump pays it (bench/scrape_vs_node_exporter.sh).
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace flightrec {

// Where compressed bytes go, a piece at a time; false once it can take no more (client gone).
using ByteSink = std::function<bool(std::string_view bytes)>;

// Streaming: each write deflates what it is given and passes whatever compressed bytes zlib has
// ready downstream, so memory stays bounded however long the stream.
class GzipWriter {
 public:
  // Throws std::bad_alloc when zlib cannot get memory.
  explicit GzipWriter(ByteSink downstream);
  ~GzipWriter();
  GzipWriter(const GzipWriter&) = delete;
  GzipWriter& operator=(const GzipWriter&) = delete;

  // False once downstream refused bytes; later writes are ignored.
  bool write(std::string_view bytes);
  // Ends the gzip member (final block and trailer).
  bool finish();

 private:
  bool deflate_piece(std::string_view bytes, int flush);

  struct Stream;
  std::unique_ptr<Stream> stream_;
  ByteSink downstream_;
  std::string out_;
  bool ok_ = true;
};

// A complete gzip member of `plain`. Replaces the contents of `out`, keeping its capacity for the
// next scrape.
void gzip(std::string_view plain, std::string& out);
[[nodiscard]] std::string gzip(std::string_view plain);

}  // namespace flightrec
