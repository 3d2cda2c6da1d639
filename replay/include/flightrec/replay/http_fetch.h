#pragma once
// Fetches a recording over plain HTTP/1.1 (GET, Connection: close, no compression asked), so
// `flightrec replay http://host:9717/dump?format=raw` needs no curl. Chunked bodies are decoded.
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
  std::chrono::milliseconds timeout{30000};  // for connecting and for each read
  size_t max_bytes = size_t{2} << 30;
};

FetchResult http_get(std::string_view url, const FetchLimits& limits = {});

// The URL replay fetches for a source URL: /dump without format= gets format=raw (its default is
// JSON, which replay cannot read); anything else is fetched as given.
std::string recording_url(std::string_view url);

// Decodes a chunked transfer-encoded body; false (with `error`) when it is malformed or cut short.
bool decode_chunked(std::string_view body, std::string& out, std::string& error);

}  // namespace flightrec::replay
