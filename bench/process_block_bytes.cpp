// Bytes per process per frame of the process ring's blocks, for this machine's /proc as the
// process tier reads it (ProcessSampler every 250 ms for N frames, default 40 = 10 s) and for a
// synthetic 2,000-process table where a few dozen processes change per tick. Each is encoded with
// several block lengths, next to the baseline of deflating every frame whole on its own.
//
//   bench_process_block_bytes [frames]
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "bench_util.h"
#include "flightrec/process/process_sampler.h"
#include "flightrec/store/process_block.h"
#include "process_frames.h"

using namespace flightrec;
using process::ProcessFrame;

namespace {

struct Measure {
  double bytes_per_process_frame = 0;
  double encode_us_per_frame = 0;
};

Measure measure(const std::vector<ProcessFrame>& frames, size_t frames_per_block) {
  uint64_t bytes = 0;
  uint64_t rows = 0;
  const int64_t start = bench::thread_cpu_ns();
  for (size_t at = 0; at + frames_per_block <= frames.size(); at += frames_per_block) {
    const auto block = store::ProcessBlock::encode(std::span(frames).subspan(at, frames_per_block));
    bytes += block->bytes().size();
    rows += block->process_rows();
  }
  const auto cpu_ns = static_cast<double>(bench::thread_cpu_ns() - start);
  const size_t encoded_frames = frames.size() / frames_per_block * frames_per_block;
  return {.bytes_per_process_frame = static_cast<double>(bytes) / static_cast<double>(rows),
          .encode_us_per_frame = cpu_ns / 1000.0 / static_cast<double>(encoded_frames)};
}

void report(const char* name, const std::vector<ProcessFrame>& frames) {
  uint64_t processes = 0;
  uint64_t sockets = 0;
  for (const auto& frame : frames) {
    processes += frame.processes.size();
    sockets += frame.sockets.size();
  }
  std::printf("%s: %zu frames, %.0f processes and %.0f sockets per frame\n", name, frames.size(),
              static_cast<double>(processes) / static_cast<double>(frames.size()),
              static_cast<double>(sockets) / static_cast<double>(frames.size()));
  for (const size_t per_block : {size_t{1}, size_t{8}, size_t{16}, size_t{32}}) {
    if (per_block > frames.size()) break;
    const auto result = measure(frames, per_block);
    std::printf("  %2zu frames/block: %6.2f bytes per process per frame, encode %7.1f us/frame%s\n",
                per_block, result.bytes_per_process_frame, result.encode_us_per_frame,
                per_block == 1 ? "  (baseline: every frame whole)" : "");
  }
}

}  // namespace

int main(int argc, char** argv) {
  const size_t count = argc > 1 ? std::stoul(argv[1]) : 40;

  process::ProcessSampler process_sampler(sampler::ProcRoot{}, {});
  std::vector<ProcessFrame> real(count);
  for (auto& frame : real) {
    process_sampler.sample(frame);
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
  }
  report("this machine's /proc every 250 ms (no network backend: no sockets)", real);

  report("synthetic, 2000 processes, 40 changing per tick, 40 sockets",
         store::testing::synthetic_process_frames(
             {.processes = 2000, .frames = count, .changes_per_frame = 40, .sockets = 40}));
  return 0;
}
