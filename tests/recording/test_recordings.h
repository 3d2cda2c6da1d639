#pragma once
// Recordings for the tests: blocks built from the store tests' synthetic frames, and a tiny one
// whose every value is known.
#include <memory>
#include <string>
#include <vector>

#include "container_frames.h"
#include "flightrec/container/frame/container_frame_codec.h"
#include "flightrec/recording/metadata.h"
#include "flightrec/recording/recording_file.h"
#include "flightrec/store/block.h"
#include "flightrec/store/process_block.h"
#include "process_frames.h"
#include "recording.h"

namespace flightrec::recording::testing {

using BlockList = std::vector<std::shared_ptr<const store::Block>>;
using ProcessBlockList = std::vector<std::shared_ptr<const store::ProcessBlock>>;
using process::ProcessFrame;

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

using ContainerFrameList = store::ContainerFrameList;

inline std::string to_bytes(const Metadata& meta, const BlockList& blocks, bool finish = true,
                            const ProcessBlockList& process_blocks = {},
                            const ContainerFrameList& container_frames = {}) {
  std::string out;
  RecordingWriter writer(
      [&out](std::string_view bytes) {
        out += bytes;
        return true;
      },
      meta);
  writer.add_all(blocks, process_blocks, container_frames);
  if (finish) writer.finish();
  return out;
}

// Process blocks of `frames_per_block` synthetic frames starting at the synthetic recording's
// time (so both tiers overlap), `count` frames in all.
inline ProcessBlockList process_blocks_of(const std::vector<ProcessFrame>& frames,
                                          size_t frames_per_block) {
  ProcessBlockList blocks;
  for (size_t at = 0; at < frames.size(); at += frames_per_block) {
    blocks.push_back(store::ProcessBlock::encode(
        std::span(frames).subspan(at, std::min(frames_per_block, frames.size() - at))));
  }
  return blocks;
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

// Two process frames 1 ms apart, inside the known blocks' span: pid 1 (a shell with io counters,
// traffic and a socket) and pid 42 (a kernel thread that exits on the second frame).
inline std::vector<ProcessFrame> known_process_frames() {
  ProcessFrame first{.time_unix_ns = kKnownStartNs,
                     .unattributed = process::NetCounters{10, 20, 1, 2},
                     .processes_dropped = 0};
  first.processes = {{.pid = 1,
                      .uid = 1000,
                      .state = 'S',
                      .comm = "bash",
                      .cmdline = "bash -c \"x\"",
                      .cgroup = "/user.slice",
                      .start_time_unix_ns = kKnownStartNs - 2'500'000'000,
                      .cpu_user_ns = 120'000'000,
                      .cpu_system_ns = 10'000'000,
                      .rss_bytes = 4096,
                      .vsz_bytes = 8192,
                      .threads = 1,
                      .minor_faults = 7,
                      .io_read_bytes = 100,
                      .io_write_bytes = 0,
                      .net = process::NetCounters{500, 600, 5, 6},
                      .net_device = "lo"},
                     {.pid = 42,
                      .ppid = 2,
                      .state = 'I',
                      .kernel_thread = true,
                      .comm = "kworker/0:1",
                      .start_time_unix_ns = kKnownStartNs - 1'000'000'000}};
  first.sockets = {{.family = 2,
                    .state = 1,
                    .local = "127.0.0.1:9717",
                    .remote = "127.0.0.1:50000",
                    .inode = 77,
                    .pid = 1,
                    .uid = 1000,
                    .tx_bytes = 500,
                    .rx_bytes = 600}};
  ProcessFrame second = first;
  second.time_unix_ns = kKnownStartNs + 1'000'000;
  second.unattributed.reset();
  second.processes_dropped = 3;
  second.processes[0].cpu_user_ns = 130'000'000;
  second.processes[1].exited = true;
  second.processes[1].state = 'x';
  second.sockets[0].protocol = process::SocketProtocol::udp;
  second.sockets[0].tx_bytes.reset();
  second.sockets[0].rx_bytes.reset();
  return {first, second};
}
inline ProcessBlockList known_process_blocks() {
  return {store::ProcessBlock::encode(known_process_frames())};
}

// The frames as the container ring stores them.
inline ContainerFrameList stored_container_frames(
    const std::vector<container::ContainerFrame>& frames) {
  ContainerFrameList stored;
  for (const auto& frame : frames) {
    stored.push_back(std::make_shared<const store::StoredContainerFrame>(
        store::StoredContainerFrame{.time_unix_ns = frame.time_unix_ns,
                                    .bytes = container::encode_container_frame(frame)}));
  }
  return stored;
}

// Four container frames from the known blocks' start: one container throughout, another that
// appears in the second frame and is gone by the fourth (tests/support/container_frames.h).
inline std::vector<container::ContainerFrame> known_container_frames() {
  return test::sample_container_frames(kKnownStartNs);
}

}  // namespace flightrec::recording::testing
