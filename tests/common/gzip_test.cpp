#include "flightrec/common/gzip.h"

#include <zlib.h>

#include <catch2/catch.hpp>
#include <string>

using flightrec::gzip;
using flightrec::GzipWriter;

namespace {

// Inflates a gzip member with zlib (windowBits 15 + 16: gzip wrapper only); "" on any error.
std::string gunzip(const std::string& compressed, std::size_t expected_size) {
  z_stream stream{};
  if (inflateInit2(&stream, 15 + 16) != Z_OK) return "";
  std::string plain(expected_size + 1, '\0');  // one spare byte reveals trailing garbage
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(compressed.data()));
  stream.avail_in = static_cast<uInt>(compressed.size());
  stream.next_out = reinterpret_cast<Bytef*>(plain.data());
  stream.avail_out = static_cast<uInt>(plain.size());
  const int status = inflate(&stream, Z_FINISH);
  const bool whole = status == Z_STREAM_END && stream.avail_in == 0;
  plain.resize(stream.total_out);
  inflateEnd(&stream);
  return whole ? plain : "";
}

std::string metrics_like_text(std::size_t lines) {
  std::string text;
  for (std::size_t i = 0; i < lines; ++i) {
    text += "flightrec_cpu_seconds_total{cpu=\"" + std::to_string(i % 64) + "\",mode=\"user\"} " +
            std::to_string(i * 7919 % 100003) + "\n";
  }
  return text;
}

}  // namespace

TEST_CASE("gzip output inflates back to the input", "[gzip]") {
  const auto plain = metrics_like_text(5000);
  const auto compressed = gzip(plain);
  CHECK(compressed.size() < plain.size() / 4);
  CHECK(gunzip(compressed, plain.size()) == plain);
}

TEST_CASE("gzip output starts with the gzip magic bytes", "[gzip]") {
  const auto compressed = gzip("x");
  REQUIRE(compressed.size() > 2);
  CHECK(static_cast<unsigned char>(compressed[0]) == 0x1f);
  CHECK(static_cast<unsigned char>(compressed[1]) == 0x8b);
}

TEST_CASE("gzip of nothing is a valid empty member", "[gzip]") {
  const auto compressed = gzip("");
  CHECK_FALSE(compressed.empty());
  z_stream stream{};
  REQUIRE(inflateInit2(&stream, 15 + 16) == Z_OK);
  char sink[1];
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(compressed.data()));
  stream.avail_in = static_cast<uInt>(compressed.size());
  stream.next_out = reinterpret_cast<Bytef*>(sink);
  stream.avail_out = sizeof sink;
  CHECK(inflate(&stream, Z_FINISH) == Z_STREAM_END);
  CHECK(stream.total_out == 0);
  inflateEnd(&stream);
}

TEST_CASE("gzip of incompressible data grows the buffer and still round-trips", "[gzip]") {
  std::string noise(200000, '\0');
  std::uint32_t state = 12345;
  for (auto& c : noise) {
    state = state * 1664525u + 1013904223u;  // LCG: bytes deflate cannot shrink
    c = static_cast<char>(state >> 24);
  }
  std::string out = "reused buffer";
  gzip(noise, out);
  CHECK(gunzip(out, noise.size()) == noise);
}

TEST_CASE("GzipWriter streams one member that inflates back to every piece written", "[gzip]") {
  const auto plain = metrics_like_text(20000);
  std::string compressed;
  size_t pieces_out = 0;
  GzipWriter writer([&](std::string_view bytes) {
    compressed += bytes;
    ++pieces_out;
    return true;
  });
  for (size_t at = 0; at < plain.size(); at += 1000) REQUIRE(writer.write(plain.substr(at, 1000)));
  REQUIRE(writer.finish());
  CHECK(pieces_out > 1);  // bytes went downstream as they came, not all at the end
  CHECK(gunzip(compressed, plain.size()) == plain);
  CHECK(compressed == gzip(plain));
}

TEST_CASE("GzipWriter stops once downstream refuses bytes", "[gzip]") {
  size_t calls = 0;
  GzipWriter writer([&calls](std::string_view) {
    ++calls;
    return false;
  });
  std::string noise(300000, '\0');
  std::uint32_t state = 7;
  for (auto& c : noise) {
    state = state * 1664525u + 1013904223u;
    c = static_cast<char>(state >> 24);
  }
  CHECK_FALSE(writer.write(noise));
  CHECK_FALSE(writer.write("more"));
  CHECK_FALSE(writer.finish());
  CHECK(calls == 1);
}
