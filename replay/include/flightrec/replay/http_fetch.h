#pragma once
// Fetches a recording over plain HTTP/1.1 (GET, Connection: close, no compression asked), so
// `flightrec replay http://host:9717/dump?format=raw` needs no curl. Chunked bodies are decoded as
// they arrive. Every wait and every buffer is bounded (FetchLimits): a server that never answers,
// or answers without end, gives an error naming the URL instead of a hang or exhausted memory.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace flightrec::replay {

struct FetchResult {
  std::string body;
  std::string error;  // names the URL and what failed; empty on a 200 answer
  [[nodiscard]] bool ok() const noexcept { return error.empty(); }
};

struct FetchLimits {
  std::chrono::milliseconds connect_timeout{30000};  // for each address the host resolves to
  std::chrono::milliseconds read_timeout{30000};     // longest wait for the next byte (or to send)
  size_t max_header_bytes = size_t{64} << 10;        // status line and headers
  // The decoded body; memory use stays within it (plus a 64 KiB read buffer). 1 GiB is four times
  // the daemon's default web.max_dump_bytes (256 MiB), so what a default daemon serves fits.
  size_t max_body_bytes = size_t{1} << 30;
};

FetchResult http_get(std::string_view url, const FetchLimits& limits = {});

// The URL replay fetches for a source URL: /dump without format= gets format=raw (its default is
// JSON, which replay cannot read); anything else is fetched as given.
std::string recording_url(std::string_view url);

// Decodes a chunked transfer-encoded body piece by piece as it arrives, so the raw body is never
// held whole. Bytes after the last (zero-size) chunk, i.e. trailers, are ignored.
class ChunkedDecoder {
 public:
  explicit ChunkedDecoder(size_t max_bytes) noexcept : max_bytes_(max_bytes) {}

  // Appends the data in `bytes` (the next piece of the raw body, split anywhere) to `out`; false
  // (with `error`) when the body is malformed or its data would exceed max_bytes.
  bool feed(std::string_view bytes, std::string& out, std::string& error);
  // True once the last chunk has been read.
  [[nodiscard]] bool done() const noexcept { return part_ == Part::kDone; }
  // Why a body that ends here is incomplete; empty when done().
  [[nodiscard]] std::string cut_short_error() const;

 private:
  enum class Part { kSizeLine, kData, kDataEnd, kDone };
  bool end_size_line(std::string& out, std::string& error);

  size_t max_bytes_;
  Part part_ = Part::kSizeLine;
  std::string size_line_;     // the size line read so far (it may span pieces)
  uint64_t remaining_ = 0;    // data bytes of the current chunk still to come
  size_t data_end_seen_ = 0;  // bytes of the CRLF after a chunk's data read so far
};

// Decodes a whole chunked body; false (with `error`) when it is malformed or cut short.
bool decode_chunked(std::string_view body, std::string& out, std::string& error);

}  // namespace flightrec::replay
