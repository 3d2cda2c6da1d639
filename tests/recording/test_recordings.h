#pragma once
// Recordings for the tests: blocks built from the store tests' synthetic frames, and a tiny one
// whose every value is known.
#include <memory>
#include <string>
#include <vector>

#include "flightrec/recording/metadata.h"
#include "flightrec/recording/recording_file.h"
#include "flightrec/store/block.h"
#include "recording.h"

namespace flightrec::recording::testing {

using BlockList = std::vector<std::shared_ptr<const store::Block>>;

inline Metadata metadata_for(uint32_t series, int64_t rate_ns = store::testing::kRateNs) {
  Metadata meta{.rate_ns = rate_ns, .host = "testhost", .flightrec_version = "0.1.0"};
  for (uint32_t i = 0; i < series; ++i) {
    meta.series.push_back({.name = "series_" + std::to_string(i) + "_total",
                           .labels = {{"index", std::to_string(i)}},
                           .unit = "seconds",
                           .kind = sampler::SeriesKind::counter,
                           .scale = 0.01,
                           .source = "/proc/stat"});
  }
  meta.extra = {{"incident.rule", "cpu > 0.9"}, {"note", "quote \" and newline \n"}};
  return meta;
}

// Splits a synthetic recording into blocks of `block_frames` frames.
inline BlockList blocks_of(const store::testing::Recording& rec, size_t block_frames) {
  BlockList blocks;
  for (size_t at = 0; at < rec.headers.size(); at += block_frames) {
    const size_t n = std::min(block_frames, rec.headers.size() - at);
    blocks.push_back(
        store::Block::encode(std::span(rec.headers).subspan(at, n),
                             std::span(rec.values).subspan(at * rec.series, n * rec.series),
                             rec.series, store::testing::kRateNs));
  }
  return blocks;
}

inline std::string to_bytes(const Metadata& meta, const BlockList& blocks, bool finish = true) {
  std::string out;
  RecordingWriter writer(
      [&out](std::string_view bytes) {
        out += bytes;
        return true;
      },
      meta);
  for (const auto& block : blocks) writer.add(*block);
  if (finish) writer.finish();
  return out;
}

inline std::span<const uint8_t> as_span(const std::string& bytes) {
  return {reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()};
}

// Two series over three 1 ms frames starting at 2023-11-14T22:13:20Z:
//   cpu_seconds_total{cpu="0"} counter, USER_HZ ticks (scale 0.01): 12345, 12346, 12350
//   load{} gauge, scale 1: 7, absent, -3
inline constexpr int64_t kKnownStartNs = 1'700'000'000'000'000'000;
inline Metadata known_metadata() {
  return {.rate_ns = 1'000'000,
          .host = "box",
          .flightrec_version = "0.1.0",
          .series = {{.name = "cpu_seconds_total",
                      .labels = {{"cpu", "0"}},
                      .unit = "seconds",
                      .kind = sampler::SeriesKind::counter,
                      .scale = 0.01,
                      .source = "/proc/stat"},
                     {.name = "load",
                      .labels = {},
                      .unit = "",
                      .kind = sampler::SeriesKind::gauge,
                      .scale = 1.0,
                      .source = "/proc/loadavg"}},
          .extra = {{"rule", "load > 5"}}};
}
inline BlockList known_blocks() {
  const std::vector<sampler::FrameHeader> headers{
      {.tick = 0, .mono_ns = 1000, .real_ns = kKnownStartNs},
      {.tick = 1, .mono_ns = 1'001'000, .real_ns = kKnownStartNs + 1'000'000},
      {.tick = 2, .mono_ns = 2'001'000, .real_ns = kKnownStartNs + 2'000'000}};
  const std::vector<int64_t> values{12345, 7, 12346, sampler::kAbsent, 12350, -3};
  return {store::Block::encode(headers, values, 2, 1'000'000)};
}

}  // namespace flightrec::recording::testing
