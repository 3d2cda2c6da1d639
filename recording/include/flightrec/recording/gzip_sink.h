#pragma once
// Streaming gzip (RFC 1952) in front of a Sink: each write deflates what it is given and passes
// whatever compressed bytes zlib has ready downstream, so memory stays bounded.
#include <memory>
#include <string>
#include <string_view>

#include "flightrec/recording/recording_file.h"

namespace flightrec::recording {

class GzipSink {
 public:
  // Throws std::runtime_error when zlib cannot be initialised (out of memory).
  explicit GzipSink(Sink downstream);
  ~GzipSink();
  GzipSink(const GzipSink&) = delete;
  GzipSink& operator=(const GzipSink&) = delete;

  bool write(std::string_view bytes);
  // Ends the gzip member (final block and trailer).
  bool finish();

 private:
  bool deflate_all(std::string_view bytes, int flush);

  struct Stream;
  std::unique_ptr<Stream> stream_;
  Sink downstream_;
  std::string out_;
  bool ok_ = true;
};

}  // namespace flightrec::recording
