// Replay's first paint on a big recording (issue 24): writes an incident-like recording of a
// machine running N processes (default 5,000) for S seconds (default 60): this machine's real
// system schema at the default 4 ms rate with synthetic values, and the process tier's frames
// every 250 ms in blocks of 8 (the store tests' synthetic process table), then times
// `flightrec replay FILE --batch` (what a first paint costs: read, decode, one table) and
// `--batch --sort MEM%`, `--sort RGROW` and `--sort RGROW --grow-span all`: wall-clock seconds,
// the median of R runs (default 3), and peak RSS.
//
//   bench_replay_open FLIGHTREC [--processes N] [--seconds S] [--runs R] [--keep FILE]
#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench_util.h"
#include "default_config.h"
#include "flightrec/recording/recording_file.h"
#include "flightrec/sampler/sampler.h"
#include "flightrec/sampler/sources/system_sources.h"
#include "flightrec/store/block.h"
#include "flightrec/store/process_block.h"
#include "process_frames.h"
#include "recording.h"

extern char** environ;

using namespace flightrec;

namespace {

constexpr int64_t kRateNs = 4'000'000;  // sampler.rate's default
constexpr size_t kBlockFrames = 256;    // the ring's default block length
constexpr size_t kProcessFramesPerBlock = 8;

struct Options {
  std::string flightrec;
  size_t processes = 5000;
  size_t seconds = 60;
  size_t runs = 3;
  std::string keep;
};

Options parse(int argc, char** argv) {
  if (argc < 2) {
    throw std::invalid_argument(
        "usage: bench_replay_open FLIGHTREC [--processes N] [--seconds S] [--runs R] [--keep "
        "FILE]");
  }
  Options options{.flightrec = argv[1]};
  for (int i = 2; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    const std::string value = argv[i + 1];
    if (flag == "--processes") {
      options.processes = std::stoul(value);
    } else if (flag == "--seconds") {
      options.seconds = std::stoul(value);
    } else if (flag == "--runs") {
      options.runs = std::stoul(value);
    } else if (flag == "--keep") {
      options.keep = value;
    } else {
      throw std::invalid_argument("unknown flag " + flag);
    }
  }
  return options;
}

// The series this machine's default sources record, as an incident file describes them, with a
// rule that fired in the middle of the window (replay opens there).
recording::Metadata metadata(int64_t fired_at_ns) {
  sampler::Sampler sampler(
      sampler::open_system_sources(sampler::ProcRoot{}, bench::default_config().sources),
      std::chrono::nanoseconds(kRateNs));
  recording::Metadata meta{.rate_ns = kRateNs,
                           .host = "bench",
                           .flightrec_version = "bench",
                           .series = recording::describe_schema(sampler.schema())};
  meta.extra = {{"incident.rule", "memory_pressure"},
                {"incident.condition", "memory_available_bytes < 2e9"},
                {"incident.value", "1975517184"},
                {"incident.fired_at_ns", std::to_string(fired_at_ns)}};
  return meta;
}

std::vector<std::shared_ptr<const store::Block>> system_blocks(const recording::Metadata& meta,
                                                               size_t frames, int64_t start_ns) {
  const auto series = static_cast<uint32_t>(meta.series.size());
  const store::testing::Recording values = store::testing::realistic_recording(frames, series, 1);
  std::vector<std::shared_ptr<const store::Block>> blocks;
  for (size_t at = 0; at < frames; at += kBlockFrames) {
    const size_t n = std::min(kBlockFrames, frames - at);
    std::vector<sampler::FrameHeader> headers;
    for (size_t i = at; i < at + n; ++i) {
      const auto offset = static_cast<int64_t>(i) * kRateNs;
      headers.push_back({.tick = i, .mono_ns = offset, .real_ns = start_ns + offset});
    }
    blocks.push_back(store::Block::encode(
        headers, std::span(values.values).subspan(at * series, n * series), series, kRateNs));
  }
  return blocks;
}

// Processes of one service as a host running thousands has them: the same command line and cgroup
// (the generator's are unique per process, which a real host's are not, and would make the file
// several times larger than a real one).
void as_one_service(process::ProcessFrame& frame) {
  for (auto& row : frame.processes) {
    if (row.kernel_thread || !row.container_id.empty()) continue;
    row.comm = "worker";
    row.cmdline = "/usr/bin/worker --config=/etc/worker/worker.yaml";
    row.cgroup = "/system.slice/worker.service";
  }
}

std::vector<std::shared_ptr<const store::ProcessBlock>> process_blocks(size_t processes,
                                                                       size_t frames) {
  // A few percent of the table moves each tick, as on a busy host.
  store::testing::ProcessFrameGenerator generator({.processes = processes,
                                                   .frames = frames,
                                                   .changes_per_frame = processes / 20,
                                                   .sockets = 200});
  std::vector<std::shared_ptr<const store::ProcessBlock>> blocks;
  for (size_t at = 0; at < frames; at += kProcessFramesPerBlock) {
    auto block = generator.frames(std::min(kProcessFramesPerBlock, frames - at));
    for (auto& frame : block) as_one_service(frame);
    blocks.push_back(store::ProcessBlock::encode(block));
  }
  return blocks;
}

struct Run {
  double seconds = 0;
  long peak_rss_kib = 0;
};

// Wall-clock seconds and peak RSS of one run of `args`, its output thrown away.
Run run_once(const std::vector<std::string>& args) {
  std::vector<char*> argv;
  for (const auto& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  const int64_t start = bench::monotonic_ns();
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) throw std::runtime_error("cannot run " + args[0]);
  int status = 0;
  rusage usage{};
  wait4(pid, &status, 0, &usage);
  const int64_t end = bench::monotonic_ns();
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    throw std::runtime_error(args[0] + " replay failed (status " + std::to_string(status) + ")");
  }
  return {.seconds = static_cast<double>(end - start) / 1e9, .peak_rss_kib = usage.ru_maxrss};
}

void time_command(const Options& options, const std::string& label,
                  const std::vector<std::string>& args) {
  std::vector<double> seconds;
  long peak_rss_kib = 0;
  for (size_t run = 0; run < options.runs; ++run) {
    const Run measured = run_once(args);
    seconds.push_back(measured.seconds);
    peak_rss_kib = std::max(peak_rss_kib, measured.peak_rss_kib);
  }
  const double median = bench::quantile(seconds, 0.5);  // sorts: front and back are min and max
  std::printf("  %-28s median %6.3f s (min %.3f, max %.3f, %zu runs), peak RSS %.0f MiB\n",
              label.c_str(), median, seconds.front(), seconds.back(), seconds.size(),
              static_cast<double>(peak_rss_kib) / 1024);
}

int bench_main(int argc, char** argv) {
  const Options options = parse(argc, argv);
  const size_t frames = options.seconds * 1'000'000'000 / kRateNs;
  const size_t process_frames = options.seconds * 4;  // processes.rate's default, 250 ms
  const int64_t start_ns = store::testing::kProcessStartNs;
  const recording::Metadata meta =
      metadata(start_ns + static_cast<int64_t>(options.seconds) * 500'000'000);
  const auto blocks = system_blocks(meta, frames, start_ns);
  const auto processes = process_blocks(options.processes, process_frames);

  const std::filesystem::path file =
      options.keep.empty()
          ? std::filesystem::temp_directory_path() / "flightrec_bench_replay_open.flightrec"
          : std::filesystem::path(options.keep);
  if (const Status written = recording::write_recording_atomically(file, meta, blocks, processes);
      !written) {
    throw std::runtime_error(file.string() + ": " + written.error());
  }
  std::printf("recording: %zu processes, %zu s, %zu series at 4 ms, %zu process frames: %.2f MB\n",
              options.processes, options.seconds, meta.series.size(), process_frames,
              static_cast<double>(std::filesystem::file_size(file)) / 1e6);
  time_command(options, "replay --batch", {options.flightrec, "replay", file.string(), "--batch"});
  time_command(options, "replay --batch --sort MEM%",
               {options.flightrec, "replay", file.string(), "--batch", "--sort", "MEM%"});
  // RGROW over its default 10 s, then over the whole minute: the frame the span starts from is
  // one more block to decode, and so is each block a process alive at the cursor was born in.
  time_command(options, "replay --batch --sort RGROW",
               {options.flightrec, "replay", file.string(), "--batch", "--sort", "RGROW"});
  time_command(options, "replay --batch --sort RGROW --grow-span all",
               {options.flightrec, "replay", file.string(), "--batch", "--sort", "RGROW",
                "--grow-span", "all"});
  if (options.keep.empty()) std::filesystem::remove(file);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return bench::run_reporting_errors("bench_replay_open", [&] { return bench_main(argc, argv); });
}
