#pragma once
// Shared by the incident tests: small recordings, stderr capture.
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "flightrec/incidents/incident_store.h"
#include "flightrec/model/incident_description.h"
#include "flightrec/recording/metadata.h"
#include "flightrec/store/block.h"
#include "stderr_capture.h"
#include "temp_dir.h"

namespace incident_test {

inline constexpr int64_t kRate = 1'000'000;                // 1 ms
inline constexpr int64_t kT0 = 1'764'478'800'000'000'000;  // 2025-11-30T05:00:00Z

// One block of `frames` frames of two series, starting at kT0 + start_ms. The second series is
// pseudo-random so that file sizes grow with the frames (a compressor cannot squeeze it).
inline std::shared_ptr<const flightrec::store::Block> make_block(uint32_t frames,
                                                                 int64_t start_ms = 0) {
  std::vector<flightrec::sampler::FrameHeader> headers;
  std::vector<int64_t> values;
  uint32_t noise = 12345;
  for (uint32_t i = 0; i < frames; ++i) {
    noise = noise * 1664525u + 1013904223u;
    const auto tick = static_cast<uint64_t>(start_ms) + i;
    const int64_t offset = static_cast<int64_t>(tick) * kRate;
    headers.push_back({.tick = tick, .mono_ns = offset, .real_ns = kT0 + offset});
    values.push_back(static_cast<int64_t>(i) * 3);
    values.push_back(static_cast<int64_t>(noise >> 8));
  }
  return flightrec::store::Block::encode(headers, values, 2, kRate);
}

inline flightrec::recording::Metadata make_metadata() {
  flightrec::recording::Metadata metadata;
  metadata.rate_ns = kRate;
  metadata.host = "testhost";
  metadata.flightrec_version = "0.1.0";
  metadata.series = {{.name = "a_total", .source = "/proc/a"}, {.name = "b", .source = "/proc/b"}};
  return metadata;
}

// The kind is the one its producer gives: manual, alert and oom_kill incidents carry their kind's
// name as their rule, every other rule name is a configured rule.
inline flightrec::model::IncidentDescription make_info(std::string rule, int64_t fired_offset_ms) {
  const int64_t fired = kT0 + fired_offset_ms * 1'000'000;
  const auto kind =
      flightrec::model::kind_named(rule).value_or(flightrec::model::IncidentKind::rule);
  return {.kind = kind,
          .rule = std::move(rule),
          .value = 0.93,
          .series = "cpu_busy_ratio{cpu=\"total\"}",
          .fired_at_ns = fired,
          .window_from_ns = fired - 5'000'000'000,
          .window_to_ns = fired + 1'000'000'000};
}

// Writes one incident with `frames` frames; returns its entry.
inline flightrec::incidents::IncidentEntry write_incident(
    flightrec::incidents::IncidentStore& store, std::string rule, int64_t fired_offset_ms,
    uint32_t frames = 100) {
  const std::vector<std::shared_ptr<const flightrec::store::Block>> blocks{make_block(frames)};
  return store.write(make_info(std::move(rule), fired_offset_ms), make_metadata(), blocks);
}

using flightrec::testing::TempDir;

using flightrec::testing::StderrCapture;

inline std::string read_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

inline void write_bytes(const std::filesystem::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

inline bool running_as_root() { return geteuid() == 0; }

}  // namespace incident_test
