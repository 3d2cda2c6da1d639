// What one container's cgroup read costs: a cgroup made for the run (flightrec-bench-<pid> in each
// hierarchy), read by ContainerReader over and over, against a floor of bare preads of the same
// kept-open files in the same run (kernfs's own cost, which no parser can go below). Prints CPU ns
// per container read and what that makes for N containers at a few rates. Needs root to make the
// cgroup. docs/CONTAINERS.md, "Discovery and cgroup readers", "Cost".
//
// usage: bench_container_read [ROUNDS] [CGROUPFS]
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "bench_util.h"
#include "flightrec/container/cgroups/container_discovery.h"
#include "flightrec/container/cgroups/container_reader.h"
#include "flightrec/sampler/file_reader.h"

namespace {

namespace fs = std::filesystem;
using namespace flightrec::container;
using flightrec::bench::quantile;
using flightrec::bench::thread_cpu_ns;

constexpr int kReadsPerRound = 2000;

// The cgroup's directories, removed at the end whatever happens.
struct BenchCgroup {
  std::vector<fs::path> dirs;
  ~BenchCgroup() {
    for (auto dir = dirs.rbegin(); dir != dirs.rend(); ++dir) ::rmdir(dir->c_str());
  }
};

// CPU ns per call of `read`, one figure per round.
template <typename Read>
std::vector<double> measure(int rounds, Read&& read) {
  std::vector<double> per_read;
  for (int round = 0; round < rounds; ++round) {
    const int64_t start = thread_cpu_ns();
    for (int i = 0; i < kReadsPerRound; ++i) read();
    per_read.push_back(static_cast<double>(thread_cpu_ns() - start) / kReadsPerRound);
  }
  return per_read;
}

int run(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 11;
  flightrec::sampler::ProcRoot root;
  if (argc > 2) root.cgroupfs = argv[2];
  if (::geteuid() != 0) {
    std::printf("skipped: making a cgroup needs root\n");
    return 0;
  }
  auto layout = detect_cgroup_layout(root);
  if (!layout) throw std::runtime_error(layout.error());

  const std::string name = "flightrec-bench-" + std::to_string(::getpid());
  BenchCgroup cgroup;
  std::vector<fs::path> hierarchies{layout->unified};
  for (size_t i = 0; i < kControllerCount; ++i) {
    hierarchies.push_back(layout->hierarchy(static_cast<Controller>(i)));
  }
  for (const fs::path& hierarchy : hierarchies) {
    const fs::path dir = hierarchy / name;
    if (hierarchy.empty() || fs::exists(dir)) continue;  // co-mounted: made once
    fs::create_directory(dir);
    cgroup.dirs.push_back(dir);
  }

  auto matcher = ContainerMatcher::create({.path_regex = "^/" + name + "$"});
  if (!matcher) throw std::runtime_error(matcher.error());
  ContainerDiscovery discovery(*layout, std::move(*matcher));
  const auto found = discovery.refresh();
  if (!found || found->added.size() != 1) throw std::runtime_error("discovery missed " + name);
  const ContainerRef& ref = found->added.front();
  auto reader = ContainerReader::open(ref, layout->mode);
  if (!reader) throw std::runtime_error(reader.error());

  // The floor: the same files, kept open, read and not parsed, one pread each (a cgroup file is
  // rendered whole at its first read); and the same files read until an empty read, as every read
  // was before the reader ended them at a short one, for what that second pread costs.
  using flightrec::sampler::FileEnd;
  std::vector<flightrec::sampler::FileReader> floor;
  std::vector<flightrec::sampler::FileReader> until_empty;
  std::vector<std::string_view> names;
  for (size_t i = 0; i < kCgroupFileCount; ++i) {
    const auto file = static_cast<CgroupFile>(i);
    if (!reader->has(file)) continue;
    const std::optional<Controller> controller = cgroup_file_controller(file);
    const fs::path path = (controller ? ref.dir(*controller) : ref.pressure_dir) /
                          cgroup_file_name(file, layout->mode);
    floor.emplace_back(path, 4096, FileEnd::at_short_read);
    until_empty.emplace_back(path, 4096, FileEnd::at_empty_read);
    names.push_back(cgroup_file_name(file, layout->mode));
  }

  CgroupStats stats;
  bool failed = false;
  std::vector<double> reads =
      measure(rounds, [&] { failed = !reader->read(stats).ok() || failed; });
  if (failed) throw std::runtime_error("a read of " + name + " failed");
  // The fast tier's read: the CPU counters and the memory usage alone.
  std::vector<double> fast_reads =
      measure(rounds, [&] { failed = !reader->read_fast(stats).ok() || failed; });
  if (failed) throw std::runtime_error("a fast read of " + name + " failed");
  std::vector<double> floors = measure(rounds, [&] {
    std::string_view bytes;
    for (flightrec::sampler::FileReader& file : floor) (void)file.read(bytes);
  });
  std::vector<double> empty_ended = measure(rounds, [&] {
    std::string_view bytes;
    for (flightrec::sampler::FileReader& file : until_empty) (void)file.read(bytes);
  });

  const double read_ns = quantile(reads, 0.5);
  const double floor_ns = quantile(floors, 0.5);
  std::printf("cgroup %s (%s), %zu files kept open\n", ref.path.c_str(),
              std::string(mode_name(layout->mode)).c_str(), floor.size());
  std::printf("container read: %.0f ns CPU (median of %d rounds of %d; p90 %.0f)\n", read_ns,
              rounds, kReadsPerRound, quantile(reads, 0.9));
  std::printf(
      "pread floor:    %.0f ns CPU for the same files, one pread each (read / floor %.2f)\n",
      floor_ns, read_ns / floor_ns);
  std::printf(
      "until empty:    %.0f ns CPU for the same files read to an empty pread (%.2f x the floor)\n",
      quantile(empty_ended, 0.5), quantile(empty_ended, 0.5) / floor_ns);
  std::printf("fast read:      %.0f ns CPU (read_fast, the fast tier's: cpu.stat%s, %s)\n",
              quantile(fast_reads, 0.5),
              layout->mode == CgroupMode::hybrid ? ", cpuacct.usage" : "",
              std::string(cgroup_file_name(CgroupFile::memory_usage, layout->mode)).c_str());
  std::printf("pread per file (ns CPU):");
  for (size_t i = 0; i < floor.size(); ++i) {
    std::vector<double> one = measure(rounds, [&] {
      std::string_view bytes;
      (void)floor[i].read(bytes);
    });
    std::printf("%s %s %.0f", i == 0 ? "" : ",", std::string(names[i]).c_str(), quantile(one, 0.5));
  }
  std::printf("\n");
  for (const int containers : {100, 300, 1000}) {
    for (const double hz : {1.0, 10.0}) {
      std::printf("%5d containers at %4.0f Hz: %5.2f%% of a core\n", containers, hz,
                  read_ns * containers * hz / 1e9 * 100);
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return flightrec::bench::run_reporting_errors("bench_container_read",
                                                [&] { return run(argc, argv); });
}
