#include "scaling_tree.h"

#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "flightrec/common/fd.h"

namespace flightrec::bench {
namespace {

namespace fs = std::filesystem;

constexpr int kCpuModes = 10;  // user nice system idle iowait irq softirq steal guest guest_nice
constexpr uint32_t kFirstPid = 100000;  // PIDs of a long-running big host

// Truncates and rewrites in place: a reader holding the file open sees the new text, as procfs.
void write_file(const fs::path& path, std::string_view text) {
  const Fd fd(::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
  if (!fd || ::write(fd.get(), text.data(), text.size()) != static_cast<ssize_t>(text.size())) {
    throw std::runtime_error("cannot write " + path.string());
  }
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// sda .. sdz, sdaa .. sdaz, sdba ..: the kernel's names for SCSI disks past the 26th.
std::string disk_name(uint32_t index) {
  std::string letters;
  for (uint32_t n = index + 1; n > 0; n = (n - 1) / 26) {
    letters.insert(letters.begin(), static_cast<char>('a' + (n - 1) % 26));
  }
  return "sd" + letters;
}

std::string pressure_text(uint64_t tick) {
  return "some avg10=0.28 avg60=1.05 avg300=2.70 total=" + std::to_string(25'522'949 + tick * 37) +
         "\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=" + std::to_string(1'000 + tick * 5) +
         "\n";
}

std::string cgroup_cpu_text(uint64_t tick) {
  const uint64_t user = 2'344'000'000 + tick * 1'900;
  const uint64_t system = 338'400'000 + tick * 400;
  return "usage_usec " + std::to_string(user + system) + "\nuser_usec " + std::to_string(user) +
         "\nsystem_usec " + std::to_string(system) +
         "\nnr_periods 0\nnr_throttled 0\nthrottled_usec 0\n";
}

std::string pid_stat(uint32_t pid, uint32_t index) {
  return std::to_string(pid) + " (worker-" + std::to_string(index % 100) + ") S 1 " +
         std::to_string(pid) + " " + std::to_string(pid) +
         " 0 -1 4194304 111 0 22 0 250 75 0 0 20 0 4 0 " + std::to_string(50'000 + index) +
         " 123456789 1000 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n";
}

}  // namespace

ScalingTree::ScalingTree(const MachineShape& shape, const fs::path& fixture) : shape_(shape) {
  std::string pattern = (fs::temp_directory_path() / "flightrec-scaling-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp " + pattern);
  dir_ = pattern;
  try {
    populate(fixture);
  } catch (...) {
    std::error_code ignored;
    fs::remove_all(dir_, ignored);  // the destructor does not run for a constructor that throws
    throw;
  }
}

void ScalingTree::populate(const fs::path& fixture) {
  fs::create_directories(dir_ / "proc/net");
  fs::create_directories(dir_ / "proc/pressure");
  fs::create_directories(dir_ / "cgroup");
  for (const char* name : {"meminfo", "vmstat", "loadavg"}) {
    fs::copy_file(fixture / name, dir_ / "proc" / name);
  }
  const std::string stat = read_file(fixture / "stat");
  const size_t intr = stat.find("\nintr ");
  if (intr == std::string::npos) throw std::runtime_error("no intr line in " + fixture.string());
  intr_line_ = stat.substr(intr + 1, stat.find('\n', intr + 1) - intr);
  advance(0);
}

ScalingTree::~ScalingTree() {
  std::error_code ignored;
  fs::remove_all(dir_, ignored);
}

sampler::ProcRoot ScalingTree::root() const {
  return {.procfs = dir_ / "proc", .sysfs = dir_ / "sys", .cgroupfs = dir_ / "cgroup"};
}

void ScalingTree::advance(uint64_t tick) const {
  write_file(dir_ / "proc/stat", stat_text(tick));
  write_file(dir_ / "proc/diskstats", diskstats_text(tick));
  write_file(dir_ / "proc/net/dev", netdev_text(tick));
  for (const char* name : {"cpu", "memory", "io"}) {
    write_file(dir_ / "proc/pressure" / name, pressure_text(tick));
  }
  write_file(dir_ / "cgroup/cpu.stat", cgroup_cpu_text(tick));
}

std::string ScalingTree::stat_text(uint64_t tick) const {
  // Per CPU: busy CPUs gain user time, the others idle time, one USER_HZ step at a time.
  std::vector<uint64_t> total(kCpuModes, 0);
  std::string lines;
  for (uint32_t cpu = 0; cpu < shape_.cpus; ++cpu) {
    const uint64_t busy = (tick + cpu) % 3 == 0 ? 1 : 0;
    const uint64_t modes[kCpuModes] = {110'000 + cpu * 37 + tick * busy,
                                       cpu % 7,
                                       16'000 + cpu * 11 + tick / 4,
                                       630'000 + cpu * 5 + tick * (1 - busy),
                                       260 + cpu,
                                       0,
                                       22 + tick / 16,
                                       15,
                                       0,
                                       0};
    lines += "cpu" + std::to_string(cpu);
    for (int mode = 0; mode < kCpuModes; ++mode) {
      lines += " " + std::to_string(modes[mode]);
      total[static_cast<size_t>(mode)] += modes[mode];
    }
    lines += "\n";
  }
  std::string text = "cpu ";
  for (const uint64_t value : total) text += " " + std::to_string(value);
  text += "\n" + lines + intr_line_;
  text += "ctxt " + std::to_string(416'238 + tick * 41 * shape_.cpus) + "\nbtime 1764590000\n";
  text += "processes " + std::to_string(9'889 + tick / 8) + "\nprocs_running " +
          std::to_string(1 + tick % 3) + "\nprocs_blocked 0\n";
  text += "softirq 250000 0 60000 0 40000 9000 0 300 70000 0 70700\n";
  return text;
}

std::string ScalingTree::diskstats_text(uint64_t tick) const {
  std::string text;
  std::array<char, 256> line{};
  for (uint32_t disk = 0; disk < shape_.disks; ++disk) {
    const std::string name = disk_name(disk);
    const unsigned long reads = 27'639 + disk * 3 + tick / 5;
    const unsigned long writes = 23'132 + disk + tick / 2;
    for (const unsigned partition : {0u, 1u}) {
      const int n = std::snprintf(
          line.data(), line.size(),
          "%4u %7u %s%s %lu 5255 %lu 8414 %lu 10228 %lu 7136 %lu %lu 16033 6141 40 716528 463 "
          "900 18\n",
          8 + disk / 16 * 57, disk % 16 * 16 + partition, name.c_str(), partition ? "1" : "", reads,
          reads * 80, writes, writes * 100, static_cast<unsigned long>(tick % 2),
          static_cast<unsigned long>(5'280 + tick));
      text.append(line.data(), static_cast<size_t>(n));
    }
  }
  return text;
}

std::string ScalingTree::netdev_text(uint64_t tick) const {
  std::string text =
      "Inter-|   Receive                                                |  Transmit\n"
      " face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs "
      "drop fifo colls carrier compressed\n";
  for (uint32_t index = 0; index < shape_.interfaces; ++index) {
    const std::string name = index == 0 ? "lo" : "eth" + std::to_string(index - 1);
    const uint64_t packets = 1'847 + index * 13 + tick * (index % 4);
    text += "  " + name + ": " + std::to_string(packets * 1'400) + " " + std::to_string(packets) +
            " 0 0 0 0 0 0 " + std::to_string(packets * 90) + " " + std::to_string(packets / 2) +
            " 0 0 0 0 0 0\n";
  }
  return text;
}

void ScalingTree::add_processes(uint32_t count) const {
  const fs::path proc = dir_ / "proc";
  for (uint32_t index = 0; index < count; ++index) {
    const uint32_t pid = kFirstPid + index;
    const fs::path dir = proc / std::to_string(pid);
    fs::create_directory(dir);
    write_file(dir / "stat", pid_stat(pid, index));
    write_file(dir / "status", "Name:\tworker-" + std::to_string(index % 100) +
                                   "\nState:\tS (sleeping)\nPid:\t" + std::to_string(pid) +
                                   "\nPPid:\t1\nUid:\t1000\t1000\t1000\t1000\n"
                                   "Gid:\t1000\t1000\t1000\t1000\nThreads:\t4\n");
    write_file(dir / "io",
               "rchar: 10\nwchar: 20\nsyscr: 10\nsyscw: 3\nread_bytes: 512\n"
               "write_bytes: 1024\ncancelled_write_bytes: 0\n");
    // NUL-separated arguments, NUL-terminated, as the kernel writes them.
    const std::string cmdline =
        std::string("/usr/bin/worker") + '\0' + "--id=" + std::to_string(index) + '\0';
    write_file(dir / "cmdline", cmdline);
    write_file(dir / "cgroup",
               "0::/system.slice/worker-" + std::to_string(index % 50) + ".service\n");
  }
  fs::create_symlink(std::to_string(::getpid()), proc / "self");
  write_file(proc / "loadavg", "0.82 0.54 0.26 1/" + std::to_string(count) + " " +
                                   std::to_string(kFirstPid + count - 1) + "\n");
}

}  // namespace flightrec::bench
