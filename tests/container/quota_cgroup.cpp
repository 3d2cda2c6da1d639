#include "quota_cgroup.h"

#include <sched.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

namespace fs = std::filesystem;

namespace flightrec::testing {

namespace {

std::string read_text(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

bool write_text(const fs::path& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
  out.flush();
  return static_cast<bool>(out);
}

int64_t monotonic_ns() {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<int64_t>(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
}

void burn(int64_t run_ns, QuotaCgroup::Gaps* gaps) {
  constexpr int64_t kGapNs = 1'000'000;
  constexpr int kMaxGaps = static_cast<int>(sizeof(gaps->gap) / sizeof(gaps->gap[0]));
  int64_t last = monotonic_ns();
  const int64_t until = last + run_ns;
  while (last < until) {
    const int64_t now = monotonic_ns();
    if (gaps != nullptr && now - last > kGapNs && gaps->count < kMaxGaps) {
      gaps->gap[gaps->count++] = {last, now};
    }
    last = now;
  }
  if (gaps != nullptr) gaps->last_ns = last;
}

}  // namespace

std::optional<CpuHierarchy> find_cpu_hierarchy() {
  std::ifstream mountinfo("/proc/self/mountinfo");
  std::optional<CpuHierarchy> v2;
  for (std::string line; std::getline(mountinfo, line);) {
    // "<id> <parent> <dev> <root> <mount point> <options>... - <type> <source> <super options>"
    std::istringstream fields(line);
    std::string id, parent, dev, root, mount_point;
    fields >> id >> parent >> dev >> root >> mount_point;
    const size_t dash = line.find(" - ");
    if (dash == std::string::npos) continue;
    std::istringstream tail(line.substr(dash + 3));
    std::string type, source, options;
    tail >> type >> source >> options;
    if (type == "cgroup") {
      std::istringstream list(options);
      for (std::string option; std::getline(list, option, ',');) {
        if (option == "cpu") return CpuHierarchy{mount_point, false};
      }
    } else if (type == "cgroup2" && !v2) {
      std::istringstream controllers(read_text(fs::path(mount_point) / "cgroup.controllers"));
      for (std::string controller; controllers >> controller;) {
        if (controller == "cpu") v2 = CpuHierarchy{mount_point, true};
      }
    }
  }
  return v2;
}

QuotaCgroup::QuotaCgroup(const CpuHierarchy& hierarchy, const std::string& name, int64_t quota_us,
                         int64_t period_us)
    : path_(hierarchy.root / ("flightrec-throttle-" + std::to_string(getpid()) + "-" + name)),
      v2_(hierarchy.v2) {
  if (v2_) {
    const std::string enabled = read_text(hierarchy.root / "cgroup.subtree_control");
    if (enabled.find("cpu") == std::string::npos &&
        !write_text(hierarchy.root / "cgroup.subtree_control", "+cpu")) {
      error_ = "cannot enable the cpu controller in " + hierarchy.root.string();
      return;
    }
  }
  std::error_code ec;
  if (!fs::create_directory(path_, ec)) {
    error_ = "cannot make " + path_.string() + ": " + (ec ? ec.message() : "it exists");
    return;
  }
  made_ = true;
  const bool set = v2_ ? write_text(path_ / "cpu.max",
                                    std::to_string(quota_us) + " " + std::to_string(period_us))
                       : write_text(path_ / "cpu.cfs_period_us", std::to_string(period_us)) &&
                             write_text(path_ / "cpu.cfs_quota_us", std::to_string(quota_us));
  if (!set) error_ = "cannot set the quota of " + path_.string();
}

QuotaCgroup::~QuotaCgroup() {
  if (burner_ > 0) {
    kill(burner_, SIGKILL);
    waitpid(burner_, nullptr, 0);
  }
  if (!made_) return;
  // A cgroup whose last task just exited can refuse rmdir for a moment.
  for (int attempt = 0; attempt < 200 && rmdir(path_.c_str()) != 0 && errno == EBUSY; ++attempt) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

uint64_t QuotaCgroup::id() const {
  struct stat info {};
  return stat(path_.c_str(), &info) == 0 ? info.st_ino : 0;
}

std::pair<uint64_t, int64_t> QuotaCgroup::throttled() const {
  std::istringstream stat(read_text(path_ / "cpu.stat"));
  uint64_t periods = 0;
  int64_t time_ns = 0;
  std::string key;
  for (int64_t value = 0; stat >> key >> value;) {
    if (key == "nr_throttled") periods = static_cast<uint64_t>(value);
    if (key == "throttled_usec") time_ns = value * 1000;  // v2
    if (key == "throttled_time") time_ns = value;         // v1
  }
  return {periods, time_ns};
}

bool QuotaCgroup::start_burner(int threads, int64_t run_ns, Gaps* gaps, int cpu) {
  int go[2];
  if (!error_.empty() || pipe(go) != 0) return false;
  const pid_t pid = fork();
  if (pid == 0) {
    close(go[1]);
    char byte = 0;
    if (read(go[0], &byte, 1) != 1) _exit(1);  // not moved in: the parent closed the pipe
    if (cpu >= 0) {
      cpu_set_t set;
      CPU_ZERO(&set);
      CPU_SET(static_cast<size_t>(cpu), &set);
      if (sched_setaffinity(0, sizeof(set), &set) != 0) _exit(1);
    }
    std::vector<std::thread> others;
    for (int i = 1; i < threads; ++i) others.emplace_back(burn, run_ns, nullptr);
    burn(run_ns, gaps);
    for (auto& thread : others) thread.join();
    _exit(0);
  }
  close(go[0]);
  burner_ = pid > 0 ? pid : 0;
  const bool moved = burner_ > 0 && write_text(path_ / "cgroup.procs", std::to_string(pid));
  if (moved && write(go[1], "g", 1) != 1) error_ = "cannot start the burner";
  close(go[1]);
  return moved && error_.empty();
}

bool QuotaCgroup::wait_burner() {
  if (burner_ <= 0) return false;
  int status = 0;
  const bool reaped = waitpid(burner_, &status, 0) == burner_;
  burner_ = 0;
  return reaped && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

}  // namespace flightrec::testing
