// The storage budget (<= 2 bytes per stored value) and decode speed on recordings shaped like
// /proc data. Hidden tests ([.]) measure instead of assert: run them on a Release build.
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "flightrec/sampler/series.h"
#include "flightrec/store/block.h"
#include "flightrec/store/ring.h"
#include "recording.h"

using flightrec::store::Ring;
using flightrec::store::RingOptions;
using flightrec::store::RingStats;
using flightrec::store::testing::realistic_recording;
using flightrec::store::testing::Recording;

namespace {

RingStats record(const Recording& rec) {
  RingOptions options;
  options.series = rec.series;
  Ring ring(options);
  for (size_t f = 0; f < rec.headers.size(); ++f) ring.append(rec.headers[f], rec.row(f));
  return ring.stats();
}

double microseconds(std::chrono::steady_clock::duration elapsed) {
  return std::chrono::duration<double, std::micro>(elapsed).count();
}

}  // namespace

TEST_CASE("realistic /proc-shaped data stays far below 2 bytes per value", "[compression]") {
  const Recording rec = realistic_recording(4096, 300, 50);
  const RingStats stats = record(rec);
  REQUIRE(stats.values == 4096 * 300);
  WARN("synthetic /proc-shaped data: " << stats.bytes_per_value() << " bytes/value over "
                                       << stats.values << " values");
  CHECK(stats.bytes_per_value() < 0.5);
}

TEST_CASE("decode throughput of sealed blocks", "[.][bench]") {
  const Recording rec = realistic_recording(8192, 400, 51);
  RingOptions options;
  options.series = rec.series;
  Ring ring(options);
  const auto encode_start = std::chrono::steady_clock::now();
  for (size_t f = 0; f < rec.headers.size(); ++f) ring.append(rec.headers[f], rec.row(f));
  const std::chrono::duration<double> encode_time = std::chrono::steady_clock::now() - encode_start;
  const auto snapshot = ring.snapshot();
  std::vector<int64_t> column;
  uint64_t values = 0;
  int64_t checksum = 0;
  const auto start = std::chrono::steady_clock::now();
  for (int pass = 0; pass < 5; ++pass) {
    for (const auto& block : snapshot.sealed()) {
      for (uint32_t s = 0; s < block->series(); ++s) {
        block->decode_series(s, column);
        checksum += column[0];
        values += column.size();
      }
    }
  }
  const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
  WARN("decode: " << static_cast<double>(values) / elapsed.count() / 1e6
                  << " M values/s; append+encode: "
                  << static_cast<double>(rec.values.size()) / encode_time.count() / 1e6
                  << " M values/s; " << snapshot.stats().bytes_per_value()
                  << " bytes/value (checksum " << checksum << ")");
  CHECK(values > 0);
}

namespace {

// Every integer token of the files a 1 ms sampler reads, in file order.
void read_integers(const std::string& path, std::vector<int64_t>& out) {
  std::ifstream in(path);
  std::string token;
  while (in >> token) {
    if (token.find_first_not_of("0123456789") == std::string::npos && token.size() < 19) {
      out.push_back(std::stoll(token));
    }
  }
}

}  // namespace

TEST_CASE("bytes per value on a real /proc recording at 1 ms", "[.][proc]") {
  const std::vector<std::string> files{
      "/proc/stat",         "/proc/meminfo",         "/proc/vmstat",
      "/proc/diskstats",    "/proc/net/dev",         "/proc/loadavg",
      "/proc/pressure/cpu", "/proc/pressure/memory", "/proc/pressure/io"};
  std::vector<int64_t> row;
  for (const auto& file : files) read_integers(file, row);
  const auto series = static_cast<uint32_t>(row.size());
  RingOptions options;
  options.series = series;
  Ring ring(options);
  std::chrono::steady_clock::duration storing{};
  const auto start = std::chrono::steady_clock::now();
  for (uint64_t tick = 0; tick < 4000; ++tick) {
    std::this_thread::sleep_until(start + std::chrono::milliseconds(tick));
    row.clear();
    for (const auto& file : files) read_integers(file, row);
    row.resize(series, flightrec::sampler::kAbsent);
    const auto now = std::chrono::steady_clock::now();
    const auto now_ns = now.time_since_epoch().count();
    ring.append({tick, now_ns, now_ns}, row);
    storing += std::chrono::steady_clock::now() - now;
  }
  ring.seal();
  const auto stats = ring.stats();
  WARN("real /proc: " << series << " series, " << stats.frames << " frames, "
                      << stats.bytes_per_value() << " bytes/value, append+encode "
                      << microseconds(storing) / 4000.0 << " us/frame");
  CHECK(stats.bytes_per_value() < 2.0);
}
