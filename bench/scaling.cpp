// Cost per tick on big machines, from synthetic proc roots (bench/scaling_tree.h): this host's
// real /proc, then machines of 2, 64 and 256 CPUs with 64 disks and 64 interfaces, with the
// keyed sources' default max_keys (16) and with 64 so every disk and interface is recorded.
// Per shape: the sampler's CPU per tick at the default rates (sample_due over consecutive ticks,
// the files rewritten between ticks so counters move), the recorder's CPU per frame (the same
// frames through the system Recorder into a Ring) and one /metrics body of the SystemCollector
// (bytes, CPU to collect and serialize). Then the process tier at 10,000 fake processes.
//
// usage: bench_scaling [--ticks N (>= 1024)] [--processes N] [--rounds R]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "bench_util.h"
#include "default_config.h"
#include "flightrec/config/config.h"
#include "flightrec/exporter/metrics/collectors.h"
#include "flightrec/exposition/serialize.h"
#include "flightrec/process/process_sampler.h"
#include "flightrec/recorder/recorder.h"
#include "flightrec/sampler/sampler.h"
#include "flightrec/sampler/sources/system_sources.h"
#include "flightrec/store/ring.h"
#include "scaling_tree.h"

using namespace flightrec;
using process::ProcessFrame;
using process::ProcessSampler;
using process::ProcessSamplerOptions;

namespace {

constexpr std::chrono::milliseconds kTick(4);  // sampler.rate's default
constexpr double kTicksPerSecond = 250;
constexpr double kProcessTicksPerSecond = 4;  // sampler.process_rate 250 ms
constexpr uint32_t kKeysForAll = 64;

struct Options {
  uint64_t ticks = 2000;
  uint32_t processes = 10000;
  int rounds = 9;
};

Options parse_options(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string_view flag = argv[i];
    if (i + 1 >= argc) throw std::invalid_argument("missing value after " + std::string(flag));
    const long value = std::strtol(argv[++i], nullptr, 10);
    if (value < 1) throw std::invalid_argument(std::string(flag) + " must be a positive number");
    if (flag == "--ticks") {
      options.ticks = static_cast<uint64_t>(value);
    } else if (flag == "--processes") {
      options.processes = static_cast<uint32_t>(value);
    } else if (flag == "--rounds") {
      options.rounds = static_cast<int>(value);
    } else {
      throw std::invalid_argument("unknown flag " + std::string(flag));
    }
  }
  // The recorder's cost is mostly sealing blocks: time several of them.
  const uint64_t block = store::RingOptions{}.block_frames;
  if (options.ticks < 4 * block) {
    throw std::invalid_argument("--ticks must be at least " + std::to_string(4 * block) +
                                " (four blocks of frames)");
  }
  return options;
}

// What reading the CPU clock itself costs, subtracted from each timed tick.
double clock_cost_ns() {
  std::vector<double> costs;
  for (int i = 0; i < 1001; ++i) {
    const int64_t start = bench::thread_cpu_ns();
    costs.push_back(static_cast<double>(bench::thread_cpu_ns() - start));
  }
  return bench::quantile(costs, 0.5);
}

double percent_of_core(double cpu_us, double per_second) { return cpu_us * per_second / 1e4; }

struct SystemCost {
  size_t series = 0;
  double sampler_us = 0;   // CPU per tick
  double recorder_us = 0;  // CPU per frame
  size_t metrics_bytes = 0;
  double scrape_ms = 0;  // CPU to collect and serialize the system part of /metrics
};

// Every frame the sampler produced, one after the other.
struct SampledFrames {
  std::vector<int64_t> values;  // ticks x schema.size()
  double cpu_us_per_tick = 0;
};

// Runs `sampler` over `ticks` consecutive ticks; `tree` (null: the live /proc) is rewritten
// between ticks, outside the timed part.
SampledFrames sample(sampler::Sampler& sampler, const bench::ScalingTree* tree, uint64_t ticks,
                     double clock_ns) {
  SampledFrames out;
  const size_t width = sampler.schema().size();
  out.values.resize(width * ticks);
  std::vector<int64_t> frame(width, sampler::kAbsent);
  double cpu_ns = 0;
  for (uint64_t tick = 0; tick < ticks; ++tick) {
    if (tree != nullptr) tree->advance(tick);
    const int64_t start = bench::thread_cpu_ns();
    sampler.sample_due(tick, frame);
    cpu_ns += static_cast<double>(bench::thread_cpu_ns() - start) - clock_ns;
    std::copy(frame.begin(), frame.end(),
              out.values.begin() + static_cast<ptrdiff_t>(tick * width));
  }
  out.cpu_us_per_tick = cpu_ns / static_cast<double>(ticks) / 1000;
  return out;
}

// The frames through the Recorder into a Ring as the recorder thread would take them (batches
// from the queue), then `scrapes` renderings of the SystemCollector's part of /metrics.
// The schema's keyed series point into the sampler's sources: the sampler must outlive this.
void record_and_scrape(const sampler::Schema& schema, const SampledFrames& frames, uint64_t ticks,
                       int scrapes, SystemCost& cost) {
  const config::Config defaults;
  const size_t width = schema.size();
  constexpr size_t kBatch = 64;  // frames per drain: ~a quarter second of ticks
  sampler::FrameQueue queue(width, kBatch);
  store::Ring ring({.series = static_cast<uint32_t>(width),
                    .rate = kTick,
                    .duration = defaults.buffer.duration,
                    .max_bytes = defaults.buffer.max_bytes});
  recorder::Recorder recorder(queue, ring, schema, kTick, defaults.export_.window);
  const int64_t mono0 = bench::monotonic_ns();
  const int64_t real0 = 1'764'590'000'000'000'000;
  const auto tick_ns = std::chrono::nanoseconds(kTick).count();
  double cpu_ns = 0;
  for (uint64_t tick = 0; tick < ticks;) {
    for (size_t n = 0; n < kBatch && tick < ticks; ++n, ++tick) {
      const int64_t offset = static_cast<int64_t>(tick) * tick_ns;
      const std::span<const int64_t> values(frames.values.data() + tick * width, width);
      if (!queue.push({tick, mono0 + offset, real0 + offset}, values)) {
        throw std::runtime_error("frame queue full");
      }
    }
    const int64_t start = bench::thread_cpu_ns();
    recorder.drain();
    cpu_ns += static_cast<double>(bench::thread_cpu_ns() - start);
  }
  cost.recorder_us = cpu_ns / static_cast<double>(ticks) / 1000;

  exposition::Collectables collectables(real0);
  collectables.emplace<exporter::metrics::SystemCollector>(schema, recorder);
  std::vector<prometheus::MetricFamily> families;
  exposition::ExtrasByFamily extras;
  std::string body;
  std::vector<double> scrape_ns;
  const int64_t now = mono0 + static_cast<int64_t>(ticks) * tick_ns;
  for (int i = 0; i < scrapes; ++i) {
    const int64_t start = bench::thread_cpu_ns();
    families.clear();
    extras.clear();
    collectables.collect(now, families, extras);
    exposition::serialize_into(exposition::Format::text_0_0_4, families, extras, body);
    scrape_ns.push_back(static_cast<double>(bench::thread_cpu_ns() - start));
  }
  cost.metrics_bytes = body.size();
  cost.scrape_ms = bench::quantile(scrape_ns, 0.5) / 1e6;
}

config::Config::Sources sources_with_keys(uint32_t max_keys) {
  config::Config::Sources sources = bench::default_config().sources;
  sources.at("diskstats").keys->max_keys = max_keys;
  sources.at("netdev").keys->max_keys = max_keys;
  return sources;
}

SystemCost system_cost(const sampler::ProcRoot& root, const bench::ScalingTree* tree,
                       const config::Config::Sources& sources, const Options& options,
                       double clock_ns) {
  sampler::Sampler sampler(sampler::open_system_sources(root, sources), kTick);
  const SampledFrames frames = sample(sampler, tree, options.ticks, clock_ns);
  SystemCost cost{.series = sampler.schema().size(), .sampler_us = frames.cpu_us_per_tick};
  record_and_scrape(sampler.schema(), frames, options.ticks, options.rounds * 3, cost);
  return cost;
}

void print_system_header() {
  std::printf(
      "| machine | max_keys | series | sampler µs/tick | sampler %% | recorder µs/frame | "
      "recorder %% | /metrics system bytes | scrape CPU ms |\n"
      "| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
}

void print_system_row(const std::string& machine, uint32_t max_keys, const SystemCost& cost) {
  std::printf("| %s | %u | %zu | %.1f | %.2f | %.1f | %.2f | %zu | %.2f |\n", machine.c_str(),
              max_keys, cost.series, cost.sampler_us,
              percent_of_core(cost.sampler_us, kTicksPerSecond), cost.recorder_us,
              percent_of_core(cost.recorder_us, kTicksPerSecond), cost.metrics_bytes,
              cost.scrape_ms);
  std::fflush(stdout);
}

struct ProcessCost {
  double ms_per_tick = 0;
  uint32_t processes = 0;
  uint32_t held = 0;
  uint32_t fd_fallbacks = 0;
};

// Median CPU of ProcessSampler::sample over `rounds` ticks, after two warm-up ticks (the first
// sight of a process reads its status, cmdline and cgroup as well).
ProcessCost process_cost(const sampler::ProcRoot& root, uint32_t max_count, bool always_list,
                         int rounds) {
  ProcessSamplerOptions options;
  options.redact_cmdline = bench::default_config().processes.redact_cmdline;
  options.max_count = max_count;
  options.always_list = always_list;
  ProcessSampler process_sampler(root, options);
  ProcessFrame frame;
  for (int warm = 0; warm < 2; ++warm) process_sampler.sample(frame);
  std::vector<double> cpu_ns;
  for (int round = 0; round < rounds; ++round) {
    const int64_t start = bench::thread_cpu_ns();
    process_sampler.sample(frame);
    cpu_ns.push_back(static_cast<double>(bench::thread_cpu_ns() - start));
  }
  const auto& stats = process_sampler.stats();
  return {.ms_per_tick = bench::quantile(cpu_ns, 0.5) / 1e6,
          .processes = static_cast<uint32_t>(frame.processes.size()),
          .held = stats.held,
          .fd_fallbacks = stats.fd_fallbacks};
}

void print_process_row(const std::string& what, const ProcessCost& cost) {
  std::printf("| %s | %u | %.2f | %.2f | %u | %u |\n", what.c_str(), cost.processes,
              cost.ms_per_tick, percent_of_core(cost.ms_per_tick * 1000, kProcessTicksPerSecond),
              cost.held, cost.fd_fallbacks);
  std::fflush(stdout);
}

double daemon_percent(const SystemCost& system, const ProcessCost& processes) {
  return percent_of_core(system.sampler_us + system.recorder_us, kTicksPerSecond) +
         percent_of_core(processes.ms_per_tick * 1000, kProcessTicksPerSecond);
}

struct SystemCosts {
  SystemCost host, small, big;  // live /proc; synthetic 2 and 256 CPUs with every key recorded
};

SystemCosts system_table(const Options& options, const std::filesystem::path& fixture,
                         double clock_ns) {
  const uint32_t default_keys = bench::default_config().sources.at("diskstats").keys->max_keys;
  print_system_header();
  SystemCosts costs;
  costs.host = system_cost({}, nullptr, sources_with_keys(default_keys), options, clock_ns);
  print_system_row("this host (live /proc)", default_keys, costs.host);
  const std::vector<bench::MachineShape> shapes = {
      {"synthetic, this host's shape: 2 CPUs, 1 disk, 4 interfaces", 2, 1, 4},
      {"64 CPUs, 64 disks, 64 interfaces", 64, 64, 64},
      {"256 CPUs, 64 disks, 64 interfaces", 256, 64, 64}};
  for (const auto& shape : shapes) {
    const bench::ScalingTree tree(shape, fixture);
    for (const uint32_t keys : {default_keys, kKeysForAll}) {
      const SystemCost cost =
          system_cost(tree.root(), &tree, sources_with_keys(keys), options, clock_ns);
      print_system_row(shape.name, keys, cost);
      if (keys == kKeysForAll) (shape.cpus == 2 ? costs.small : costs.big) = cost;
    }
    if (shape.cpus == 256) {
      // What a lower per-CPU rate would buy: /proc/stat (the per-CPU lines) read every 20 ms;
      // the root cgroup's cpu.stat keeps the machine's total CPU at 4 ms.
      config::Config::Sources slower = sources_with_keys(kKeysForAll);
      slower.at("stat").rate = std::chrono::milliseconds(20);
      print_system_row(shape.name + ", stat at 20 ms", kKeysForAll,
                       system_cost(tree.root(), &tree, slower, options, clock_ns));
    }
  }
  return costs;
}

struct ProcessCosts {
  ProcessCost host, all;  // live /proc; every synthetic process recorded
};

ProcessCosts process_table(const Options& options, const std::filesystem::path& fixture) {
  std::printf(
      "\n| process tier | processes | ms/tick | %% of a core at 250 ms | held | "
      "fd fallbacks |\n| --- | --- | --- | --- | --- | --- |\n");
  const uint32_t default_count = bench::default_config().processes.max_count;
  ProcessCosts costs;
  costs.host = process_cost({}, default_count, false, options.rounds);
  print_process_row("this host (live /proc)", costs.host);
  const bench::ScalingTree tree({"processes", 2, 1, 2}, fixture);
  tree.add_processes(options.processes);
  const std::string many = std::to_string(options.processes) + " synthetic";
  print_process_row(many + ", max_count " + std::to_string(default_count) + " (default)",
                    process_cost(tree.root(), default_count, false, options.rounds));
  const uint32_t all = options.processes + 16;
  costs.all = process_cost(tree.root(), all, false, options.rounds);
  print_process_row(many + ", max_count " + std::to_string(all), costs.all);
  print_process_row(many + ", listing /proc every tick",
                    process_cost(tree.root(), all, true, options.rounds));
  return costs;
}

int run(const Options& options) {
  const double clock_ns = clock_cost_ns();
  const std::filesystem::path fixture = FLIGHTREC_PROC_FIXTURE;
  std::printf("%lu ticks of %lld ms per machine (%.1f s of sampling); CPU clock read %.0f ns\n\n",
              static_cast<unsigned long>(options.ticks), static_cast<long long>(kTick.count()),
              static_cast<double>(options.ticks) / kTicksPerSecond, clock_ns);
  const SystemCosts system = system_table(options, fixture, clock_ns);
  const ProcessCosts processes = process_table(options, fixture);
  const double host = daemon_percent(system.host, processes.host);
  const double big = daemon_percent(system.big, processes.all);
  std::printf(
      "\nsampler + recorder + process tier, %% of a core: this host %.2f, synthetic 2-CPU "
      "shape %.2f, 256 CPUs / 64 disks / 64 interfaces / %u processes %.2f (%.1fx this host)\n",
      host, daemon_percent(system.small, processes.host), options.processes, big, big / host);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return flightrec::bench::run_reporting_errors("bench_scaling",
                                                [&] { return run(parse_options(argc, argv)); });
}
