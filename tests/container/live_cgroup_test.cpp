// Real cgroups on a v1 (hybrid) host such as this project's CI machine: a cgroup made for the
// test, a child process run in it, and what ContainerDiscovery and ContainerReader see checked
// against the kernel's own files; and the same for v2 through the host's unified/ mount. Skipped,
// saying why, when not root or not on a v1 host.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "flightrec/container/cgroups/container_discovery.h"
#include "flightrec/container/cgroups/container_reader.h"
#include "flightrec/container/cgroups/cpu_files.h"
#include "flightrec/container/cgroups/memory_files.h"
#include "flightrec/container/cgroups/pressure_file.h"
#include "flightrec/container/cgroups/value_files.h"
#include "flightrec/sampler/file_reader.h"
#include "temp_dir.h"

using namespace flightrec::container;
namespace fs = std::filesystem;

namespace {

// The host's layout, or nullopt after saying why the live tests cannot run here.
std::optional<CgroupLayout> v1_host() {
  if (::geteuid() != 0) {
    WARN("SKIPPED: making cgroups needs root");
    return std::nullopt;
  }
  const auto layout = detect_cgroup_layout(flightrec::sampler::ProcRoot{});
  if (!layout) {
    WARN("SKIPPED: " << layout.error());
    return std::nullopt;
  }
  if (layout->mode != CgroupMode::hybrid) {
    WARN("SKIPPED: not a cgroup v1 host (cgroup v2 at " << layout->unified.string() << ")");
    return std::nullopt;
  }
  return *layout;
}

// flightrec-test-<pid> in the hierarchies asked for (and unified/ when mounted), removed with a
// child it ran, however the test ends. Not quota_cgroup.h's QuotaCgroup, which makes its cgroup in
// the cpu hierarchy alone: the reader's container is in every hierarchy.
class LiveCgroup {
 public:
  LiveCgroup(const CgroupLayout& layout, std::vector<Controller> controllers)
      : name_("flightrec-test-" + std::to_string(::getpid())) {
    std::vector<fs::path> hierarchies;
    for (const Controller controller : controllers)
      hierarchies.push_back(layout.hierarchy(controller));
    if (!layout.unified.empty()) hierarchies.push_back(layout.unified);
    for (const fs::path& hierarchy : hierarchies) {
      if (hierarchy.empty()) continue;
      const fs::path dir = hierarchy / name_;
      if (std::find(dirs_.begin(), dirs_.end(), dir) != dirs_.end()) continue;  // cpu,cpuacct
      std::error_code error;
      fs::create_directory(dir, error);
      if (error) {
        failure_ = "cannot make " + dir.string() + ": " + error.message();
        return;
      }
      dirs_.push_back(dir);
    }
  }
  LiveCgroup(const LiveCgroup&) = delete;
  LiveCgroup& operator=(const LiveCgroup&) = delete;

  ~LiveCgroup() {
    stop_child();
    // The cgroup empties once its last task is reaped; a remove can still race the kernel's
    // bookkeeping for a moment, so it is retried briefly.
    for (auto dir = dirs_.rbegin(); dir != dirs_.rend(); ++dir) {
      for (int attempt = 0; attempt < 50 && ::rmdir(dir->c_str()) != 0 && errno == EBUSY;
           ++attempt) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      }
    }
  }

  [[nodiscard]] const std::string& failure() const { return failure_; }
  [[nodiscard]] const std::string& name() const { return name_; }
  [[nodiscard]] fs::path dir(const CgroupLayout& layout, Controller controller) const {
    return layout.hierarchy(controller) / name_;
  }

  // Runs `body` in a child process placed in every one of the cgroup's directories, and waits
  // for it (killed after 20 s: a test must not hang). Returns the child's exit status.
  int run(const std::function<void()>& body) {
    int go[2];
    REQUIRE(::pipe2(go, O_CLOEXEC) == 0);
    child_ = ::fork();
    REQUIRE(child_ >= 0);
    if (child_ == 0) {
      char byte = 0;
      ::close(go[1]);
      if (::read(go[0], &byte, 1) != 1) ::_exit(2);
      body();
      ::_exit(0);
    }
    ::close(go[0]);
    for (const fs::path& dir : dirs_) {
      const std::string pid = std::to_string(child_);
      const int fd = ::open((dir / "cgroup.procs").c_str(), O_WRONLY | O_CLOEXEC);
      const bool moved =
          fd >= 0 && ::write(fd, pid.data(), pid.size()) == static_cast<ssize_t>(pid.size());
      if (fd >= 0) ::close(fd);
      REQUIRE(moved);
    }
    REQUIRE(::write(go[1], "g", 1) == 1);
    ::close(go[1]);
    int status = 0;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (::waitpid(child_, &status, WNOHANG) == 0) {
      if (std::chrono::steady_clock::now() > deadline) {
        stop_child();
        FAIL("the child in " << name_ << " did not finish within 20 s");
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    child_ = -1;
    return status;
  }

 private:
  void stop_child() {
    if (child_ <= 0) return;
    ::kill(child_, SIGKILL);
    ::waitpid(child_, nullptr, 0);
    child_ = -1;
  }

  std::string name_;
  std::vector<fs::path> dirs_;
  std::string failure_;
  pid_t child_ = -1;
};

void write_file(const fs::path& path, const std::string& value) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  REQUIRE(fd >= 0);
  const bool written =
      ::write(fd, value.data(), value.size()) == static_cast<ssize_t>(value.size());
  ::close(fd);
  INFO(path.string() << " <- " << value);
  REQUIRE(written);
}

// The test's cgroup as discovery finds it on the live host, through a regex naming only it.
ContainerRef discover(const CgroupLayout& layout, const std::string& name) {
  auto matcher = ContainerMatcher::create(
      {.runtimes = false, .kubepods = false, .path_regex = "^/" + name + "$"});
  REQUIRE(matcher.ok());
  ContainerDiscovery discovery(layout, std::move(*matcher));
  const auto changes = discovery.refresh();
  REQUIRE(changes.ok());
  REQUIRE(changes->added.size() == 1);
  CHECK(changes->added.front().identity.runtime == Runtime::custom);
  CHECK(changes->added.front().identity.id == name);
  return changes->added.front();
}

CgroupStats read_stats(const ContainerRef& ref, CgroupMode mode = CgroupMode::hybrid) {
  auto reader = ContainerReader::open(ref, mode);
  REQUIRE(reader.ok());
  CgroupStats stats;
  const flightrec::Status status = reader->read(stats);
  INFO(status.error());
  REQUIRE(status.ok());
  return stats;
}

// Spins for `duration` of wall time.
void burn(std::chrono::milliseconds duration) {
  const auto end = std::chrono::steady_clock::now() + duration;
  volatile uint64_t spins = 0;
  while (std::chrono::steady_clock::now() < end) spins = spins + 1;
}

}  // namespace

TEST_CASE("a v1 cgroup's CFS throttling, read live, agrees with its files", "[container][live]") {
  const std::optional<CgroupLayout> layout = v1_host();
  if (!layout) return;
  LiveCgroup cgroup(*layout, {Controller::cpu, Controller::cpuacct, Controller::pids});
  if (!cgroup.failure().empty()) {
    WARN("SKIPPED: " << cgroup.failure());
    return;
  }
  const fs::path cpu = cgroup.dir(*layout, Controller::cpu);
  write_file(cpu / "cpu.cfs_period_us", "100000");
  write_file(cpu / "cpu.cfs_quota_us", "20000");  // 20 ms a period: a burner is throttled in each
  write_file(cgroup.dir(*layout, Controller::pids) / "pids.max", "64");

  const ContainerRef ref = discover(*layout, cgroup.name());
  CHECK(ref.dir(Controller::cpu) == cpu);
  CHECK(ref.dir(Controller::cpuacct) == cgroup.dir(*layout, Controller::cpuacct));
  CHECK(ref.dir(Controller::memory).empty());  // not made in the memory hierarchy

  REQUIRE(cgroup.run([] { burn(std::chrono::milliseconds(1000)); }) == 0);
  const CgroupStats stats = read_stats(ref);

  // The child has exited: the files hold still, so the reader must match them exactly.
  const auto file_stat = parse_cpu_stat(flightrec::sampler::read_file(cpu / "cpu.stat"));
  REQUIRE(file_stat.ok());
  const auto file_usage = parse_cgroup_count(
      flightrec::sampler::read_file(cgroup.dir(*layout, Controller::cpuacct) / "cpuacct.usage"));
  REQUIRE(file_usage.ok());
  CHECK(stats.bandwidth == CpuBandwidth{20000, 100000});
  CHECK(stats.cpu.periods == file_stat->periods);
  CHECK(stats.cpu.throttled_periods == file_stat->throttled_periods);
  CHECK(stats.cpu.throttled_us == file_stat->throttled_us);
  CHECK(stats.cpu.usage_us == *file_usage / 1000);
  CHECK(stats.pids == PidsStats{0, 64});

  // And they must say what a 20 % quota does to a second of spinning: about ten periods, most
  // throttled, no more CPU than the quota allowed, and throttled time within the periods'.
  INFO("periods " << stats.cpu.periods << ", throttled " << stats.cpu.throttled_periods << " for "
                  << stats.cpu.throttled_us << " us, usage " << stats.cpu.usage_us << " us");
  CHECK(stats.cpu.periods >= 5);
  CHECK(stats.cpu.throttled_periods >= 3);
  CHECK(stats.cpu.throttled_periods <= stats.cpu.periods);
  CHECK(stats.cpu.throttled_us > 0);
  CHECK(stats.cpu.throttled_us <= stats.cpu.throttled_periods * 100000);
  CHECK(stats.cpu.usage_us > 0);
  CHECK(stats.cpu.usage_us <= 20000 * (stats.cpu.periods + 2));
  CHECK(stats.cpu.user_us + stats.cpu.system_us > 0);
  if (!ref.pressure_dir.empty()) {
    // The unified hierarchy's PSI counts the throttled burner as stalled on CPU.
    CHECK(stats.cpu_pressure.some_us > 0);
  }
}

TEST_CASE("a v1 cgroup's memory limit, hit live, shows in failcnt without an OOM kill",
          "[container][live]") {
  const std::optional<CgroupLayout> layout = v1_host();
  if (!layout) return;
  LiveCgroup cgroup(*layout, {Controller::cpu, Controller::memory});
  if (!cgroup.failure().empty()) {
    WARN("SKIPPED: " << cgroup.failure());
    return;
  }
  const fs::path memory = cgroup.dir(*layout, Controller::memory);
  constexpr int64_t kLimit = 16 << 20;
  write_file(memory / "memory.limit_in_bytes", std::to_string(kLimit));
  const ContainerRef ref = discover(*layout, cgroup.name());

  // Page cache charged to the cgroup past its limit: reclaim makes room each time the limit is
  // hit (failcnt), and clean file pages can always be reclaimed, so nothing is OOM-killed (other
  // tests' daemons would see and capture an OOM kill).
  const flightrec::testing::TempDir scratch("flightrec-live-memory");
  const fs::path file = scratch.file("pages");
  REQUIRE(cgroup.run([&file] {
    const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) ::_exit(3);
    const std::string chunk(1 << 20, 'x');
    for (int mib = 0; mib < 48; ++mib) {
      if (::write(fd, chunk.data(), chunk.size()) != static_cast<ssize_t>(chunk.size())) {
        ::_exit(4);
      }
      if (mib % 4 == 3) ::fdatasync(fd);  // keep the pages clean, so reclaim is quick
    }
    ::close(fd);
  }) == 0);

  const CgroupStats stats = read_stats(ref);
  const auto failcnt = parse_cgroup_count(flightrec::sampler::read_file(memory / "memory.failcnt"));
  const auto control =
      parse_oom_control(flightrec::sampler::read_file(memory / "memory.oom_control"));
  REQUIRE(failcnt.ok());
  REQUIRE(control.ok());
  INFO("failcnt " << *failcnt << ", usage " << stats.memory.usage_bytes << ", file "
                  << stats.memory.stat.file);
  CHECK(stats.memory.limit_bytes == kLimit);
  CHECK(stats.memory.events.max == *failcnt);
  CHECK(stats.memory.events.max > 0);
  CHECK(stats.memory.events.oom_kill == control->oom_kill);
  CHECK(stats.memory.events.oom_kill == 0);
  CHECK(stats.memory.usage_bytes <= kLimit);
  CHECK(stats.memory.stat.file > 0);  // the page cache it kept
}

TEST_CASE("a v2 cgroup on the host's unified mount, read live, agrees with its files",
          "[container][live]") {
  const std::optional<CgroupLayout> host = v1_host();
  if (!host) return;
  if (host->unified.empty()) {
    WARN("SKIPPED: this v1 host mounts no cgroup v2 hierarchy at unified/");
    return;
  }
  // The unified mount as a cgroup v2 root of its own: what a pure v2 host's reader opens, as far
  // as the controllers enabled there allow (none on this project's CI machine: cpu.stat's usage
  // and the PSI files are the cgroup core's, present whatever the controllers).
  flightrec::sampler::ProcRoot root;
  root.cgroupfs = host->unified;
  const auto layout = detect_cgroup_layout(root);
  REQUIRE(layout.ok());
  REQUIRE(layout->mode == CgroupMode::unified);
  LiveCgroup cgroup(*layout, {Controller::cpu});
  if (!cgroup.failure().empty()) {
    WARN("SKIPPED: " << cgroup.failure());
    return;
  }
  const fs::path dir = host->unified / cgroup.name();
  const ContainerRef ref = discover(*layout, cgroup.name());
  CHECK(ref.dir(Controller::cpu) == dir);
  CHECK(ref.pressure_dir == dir);

  REQUIRE(cgroup.run([] { burn(std::chrono::milliseconds(300)); }) == 0);
  const CgroupStats stats = read_stats(ref, CgroupMode::unified);

  const auto file_stat = parse_cpu_stat(flightrec::sampler::read_file(dir / "cpu.stat"));
  const auto file_pressure =
      parse_cgroup_pressure(flightrec::sampler::read_file(dir / "cpu.pressure"));
  REQUIRE(file_stat.ok());
  REQUIRE(file_pressure.ok());
  CHECK(stats.cpu.usage_us == file_stat->usage_us);
  CHECK(stats.cpu.user_us == file_stat->user_us);
  CHECK(stats.cpu.system_us == file_stat->system_us);
  CHECK(stats.cpu.usage_us > 50'000);  // most of 300 ms of spinning, even on a busy machine
  CHECK(stats.cpu.usage_us <= 400'000);
  CHECK(stats.cpu_pressure == *file_pressure);
}
