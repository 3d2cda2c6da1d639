// decode_chunked on arbitrary bytes (a server's answer to replay's http_get): it must never crash
// and must say why it fails; a body it accepts must be well-formed chunked coding (RFC 9112 7.1)
// as a strict decoder written independently below reads it, with the same data; ChunkedDecoder
// must decode the body split in two pieces to the same data; and what it decoded must survive
// re-encoding as one chunk.
// Seed corpus: chunked bodies as civetweb sends them for /dump.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

#include "flightrec/replay/http_fetch.h"
#include "fuzz_check.h"

namespace replay = flightrec::replay;

namespace {

std::optional<uint64_t> hex_value(char c) {
  if (c >= '0' && c <= '9') return static_cast<uint64_t>(c - '0');
  if (c >= 'a' && c <= 'f') return static_cast<uint64_t>(c - 'a' + 10);
  if (c >= 'A' && c <= 'F') return static_cast<uint64_t>(c - 'A' + 10);
  return std::nullopt;
}

// The oracle: chunk-size [ ";" ext ] CRLF, exactly that many bytes, CRLF; up to a size of 0.
// Trailers are not looked at, as decode_chunked does not.
std::optional<std::string> strict_decode(std::string_view body) {
  std::string out;
  size_t at = 0;
  while (true) {
    uint64_t chunk = 0;
    size_t digits = 0;
    for (; at < body.size(); ++at, ++digits) {
      const auto digit = hex_value(body[at]);
      if (!digit) break;
      if (chunk > (UINT64_MAX >> 4)) return std::nullopt;
      chunk = chunk << 4 | *digit;
    }
    if (digits == 0) return std::nullopt;
    const size_t line_end = body.find("\r\n", at);
    if (line_end == std::string_view::npos) return std::nullopt;
    if (line_end != at && body[at] != ';') return std::nullopt;
    at = line_end + 2;
    if (chunk == 0) return out;
    if (chunk > body.size() - at || body.size() - at - chunk < 2) return std::nullopt;
    out.append(body.substr(at, chunk));
    at += chunk;
    if (body.substr(at, 2) != "\r\n") return std::nullopt;
    at += 2;
  }
}

std::string as_one_chunk(const std::string& data) {
  char size_line[32];
  std::snprintf(size_line, sizeof size_line, "%zx\r\n", data.size());
  std::string body = data.empty() ? "" : size_line + data + "\r\n";
  return body + "0\r\n\r\n";
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view body = flightrec::fuzz::as_text(data, size);
  std::string decoded;
  std::string error;
  const bool ok = replay::decode_chunked(body, decoded, error);
  if (ok == !error.empty()) __builtin_trap();

  // The same body split in two, as it may arrive from the socket, gets the same answer.
  const size_t split = size == 0 ? 0 : data[0] % (size + 1);
  replay::ChunkedDecoder decoder(size);
  std::string pieces;
  std::string pieces_error;
  const bool pieces_ok = decoder.feed(body.substr(0, split), pieces, pieces_error) &&
                         decoder.feed(body.substr(split), pieces, pieces_error) && decoder.done();
  if (pieces_ok != ok) __builtin_trap();
  if (!ok) return 0;
  if (pieces != decoded) __builtin_trap();

  const auto expected = strict_decode(body);
  if (!expected || *expected != decoded) __builtin_trap();

  std::string again;
  if (!replay::decode_chunked(as_one_chunk(decoded), again, error) || again != decoded) {
    __builtin_trap();
  }
  return 0;
}
