// How often does each system source's information actually change? Reads every file the fast
// tier reads, as fast as it can (every ~250 µs) for a few seconds while one busy thread per CPU
// works in 20 ms bursts, and reports for each file how many of its numbers moved at all and the
// median time between changes of each of them, in buckets. A file read faster than that step
// costs CPU and adds nothing: this is the measurement behind per-source rates
// (docs/PERFORMANCE.md, docs/SOURCES.md).
//
// usage: bench_source_steps [SECONDS] [PROCFS] [CGROUPFS]
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "bench_util.h"

namespace {

using flightrec::bench::monotonic_ns;

// Every run of digits in the file, in order: a field's position identifies it while the file's
// layout stays the same (it does, over a few seconds, unless a device appears).
std::vector<long long> numbers_of(const std::string& text) {
  std::vector<long long> numbers;
  long long value = 0;
  bool in_number = false;
  for (const char c : text) {
    if (std::isdigit(static_cast<unsigned char>(c)) != 0) {
      value = value * 10 + (c - '0');
      in_number = true;
    } else if (in_number) {
      numbers.push_back(value);
      value = 0;
      in_number = false;
    }
  }
  if (in_number) numbers.push_back(value);
  return numbers;
}

struct Watched {
  std::string path;
  int fd = -1;
  std::vector<long long> last;
  std::vector<std::vector<int64_t>> change_times;  // per field
  int64_t read_ns = 0;
  uint64_t reads = 0;
};

bool read_numbers(Watched& file, std::vector<long long>& out) {
  char buffer[1 << 16];
  const int64_t start = monotonic_ns();
  const ssize_t n = ::pread(file.fd, buffer, sizeof buffer, 0);
  file.read_ns += monotonic_ns() - start;
  ++file.reads;
  if (n <= 0) return false;
  out = numbers_of(std::string(buffer, static_cast<size_t>(n)));
  return true;
}

void observe(Watched& file, int64_t now) {
  std::vector<long long> numbers;
  if (!read_numbers(file, numbers)) return;
  if (numbers.size() != file.last.size()) {  // layout changed: start over for this file
    file.last = numbers;
    file.change_times.assign(numbers.size(), {});
    return;
  }
  for (size_t i = 0; i < numbers.size(); ++i) {
    if (numbers[i] != file.last[i]) file.change_times[i].push_back(now);
  }
  file.last = std::move(numbers);
}

// Median gap between successive changes of one field; 0 when it changed fewer than 3 times.
double median_step_ms(const std::vector<int64_t>& times) {
  if (times.size() < 3) return 0;
  std::vector<double> gaps;
  for (size_t i = 1; i < times.size(); ++i) {
    gaps.push_back(static_cast<double>(times[i] - times[i - 1]) / 1e6);
  }
  return flightrec::bench::quantile(gaps, 0.5);
}

void report(const Watched& file) {
  // How many numbers move at each step: a file whose recorded fields all move at 4 ms or slower
  // gains nothing from being read every millisecond.
  size_t moved = 0;
  size_t by_step[4] = {};  // <= 1 ms, <= 5 ms, <= 20 ms, slower (or too rarely to tell)
  for (const auto& times : file.change_times) {
    if (times.empty()) continue;
    ++moved;
    const double step = median_step_ms(times);
    const size_t bucket = step == 0 ? 3 : step <= 1 ? 0 : step <= 5 ? 1 : step <= 20 ? 2 : 3;
    ++by_step[bucket];
  }
  std::printf(
      "%-26s %4zu numbers %4zu moved: %4zu <=1ms %4zu <=5ms %4zu <=20ms %4zu slower;"
      " read %5.1f us\n",
      file.path.c_str(), file.last.size(), moved, by_step[0], by_step[1], by_step[2], by_step[3],
      file.reads == 0
          ? 0.0
          : static_cast<double>(file.read_ns) / static_cast<double>(file.reads) / 1000.0);
}

}  // namespace

int main(int argc, char** argv) {
  const double seconds = argc > 1 ? std::atof(argv[1]) : 5.0;
  const std::string procfs = argc > 2 ? argv[2] : "/proc";
  const std::string cgroupfs = argc > 3 ? argv[3] : "/sys/fs/cgroup";
  std::vector<Watched> files;
  for (const std::string& path :
       {procfs + "/stat", procfs + "/meminfo", procfs + "/vmstat", procfs + "/diskstats",
        procfs + "/net/dev", procfs + "/loadavg", procfs + "/pressure/cpu",
        procfs + "/pressure/memory", procfs + "/pressure/io", cgroupfs + "/cpu.stat"}) {
    Watched file{.path = path};
    file.fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (file.fd < 0) {
      std::printf("%-34s not readable here\n", path.c_str());
      continue;
    }
    files.push_back(std::move(file));
  }
  // Bursts of work on every CPU, so CPU counters have something to count.
  std::atomic<bool> done{false};
  std::vector<std::thread> workers;
  for (unsigned cpu = 0; cpu < std::max(1u, std::thread::hardware_concurrency()); ++cpu) {
    workers.emplace_back([&done] {
      while (!done.load()) {
        const int64_t until = monotonic_ns() + 20'000'000;
        while (monotonic_ns() < until) {
        }
        ::usleep(20'000);
      }
    });
  }
  const int64_t end = monotonic_ns() + static_cast<int64_t>(seconds * 1e9);
  for (int64_t now = monotonic_ns(); now < end; now = monotonic_ns()) {
    for (auto& file : files) observe(file, now);
    ::usleep(250);
  }
  done = true;
  for (auto& worker : workers) worker.join();
  std::printf("%.1f s, every file read every ~250 us, one busy thread per CPU in 20 ms bursts\n",
              seconds);
  for (const auto& file : files) report(file);
  return 0;
}
