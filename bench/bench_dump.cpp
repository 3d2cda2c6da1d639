// /dump throughput and memory: a full default window (10 minutes at 1 ms) of 600 synthetic series
// served through a real http::Server to curl. Blocks are encoded once per distinct pattern and
// reused, since the dump's cost does not depend on which block repeats.
// usage: bench_dump [seconds_of_window=600] [series=600]
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "flightrec/dump/dump_route.h"
#include "flightrec/http/server.h"

using namespace flightrec;

namespace {

long peak_rss_kib() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.starts_with("VmHWM:")) return std::strtol(line.c_str() + 6, nullptr, 10);
  }
  return -1;
}

std::shared_ptr<const store::Block> synthetic_block(uint64_t first_tick, uint32_t series,
                                                    std::mt19937_64& rng) {
  constexpr uint32_t kFrames = 256;
  std::vector<sampler::FrameHeader> headers(kFrames);
  std::vector<int64_t> values(size_t{kFrames} * series);
  std::vector<int64_t> level(series, 1000);
  for (uint32_t f = 0; f < kFrames; ++f) {
    const uint64_t tick = first_tick + f;
    headers[f] = {.tick = tick,
                  .mono_ns = static_cast<int64_t>(tick) * 1'000'000,
                  .real_ns = 1'764'478'800'000'000'000 + static_cast<int64_t>(tick) * 1'000'000};
    for (uint32_t s = 0; s < series; ++s) {
      if (s % 3 == 0) level[s] += static_cast<int64_t>(rng() % 50);  // busy counter
      values[size_t{f} * series + s] = level[s];
    }
  }
  return store::Block::encode(headers, values, series, 1'000'000);
}

struct Fetch {
  double bytes = 0;
  double seconds = 0;
};

Fetch fetch(const std::string& url) {
  const std::string command =
      "curl -s -o /dev/null -w '%{size_download} %{time_total}' '" + url + "'";
  FILE* pipe = popen(command.c_str(), "r");
  Fetch out;
  if (pipe == nullptr || std::fscanf(pipe, "%lf %lf", &out.bytes, &out.seconds) != 2) {
    std::fprintf(stderr, "curl failed for %s\n", url.c_str());
  }
  if (pipe != nullptr) pclose(pipe);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  const uint64_t window_s = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 600;
  const uint32_t series =
      argc > 2 ? static_cast<uint32_t>(std::strtoul(argv[2], nullptr, 10)) : 600;
  const uint64_t frames = window_s * 1000;
  std::mt19937_64 rng(1);
  std::vector<std::shared_ptr<const store::Block>> distinct;
  distinct.reserve(16);
  for (int i = 0; i < 16; ++i) distinct.push_back(synthetic_block(uint64_t(i) * 256, series, rng));
  // The ring shares blocks: same pointers, as a Snapshot would hand out.
  std::vector<std::shared_ptr<const store::Block>> blocks;
  for (uint64_t at = 0; at < frames; at += 256) blocks.push_back(distinct[blocks.size() % 16]);

  recording::Metadata meta{.rate_ns = 1'000'000, .host = "bench", .flightrec_version = "bench"};
  for (uint32_t s = 0; s < series; ++s) {
    meta.series.push_back({.name = "series_total", .labels = {{"i", std::to_string(s)}}});
  }
  http::Server server({.listen_address = "127.0.0.1:0"},
                      {dump::dump_route({.blocks = [&blocks] { return blocks; },
                                         .metadata = [&meta] { return meta; },
                                         .max_bytes = [] { return uint64_t{64} << 30; }})});
  const double values = static_cast<double>(blocks.size()) * 256.0 * series;
  std::printf("window %llu s, %u series, %zu blocks, %.0f values\n",
              static_cast<unsigned long long>(window_s), series, blocks.size(), values);
  for (const char* format : {"raw", "csv", "json"}) {
    const long rss_before = peak_rss_kib();
    const auto got = fetch(server.url() + "dump?format=" + format);
    const long rss_after = peak_rss_kib();
    std::printf("%-4s %8.1f MB in %6.2f s: %7.1f MB/s, %6.1f M values/s, peak RSS growth %ld KiB\n",
                format, got.bytes / 1e6, got.seconds, got.bytes / 1e6 / got.seconds,
                values / 1e6 / got.seconds, rss_after - rss_before);
  }
  return 0;
}
