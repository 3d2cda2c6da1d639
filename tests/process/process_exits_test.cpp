// The process exit watcher against real processes: children that live for a moment must be
// reported once, with what the kernel's own accounting (wait4's rusage) says about them. Needs
// root and a kernel that lets the program load; elsewhere the tests are skipped with a warning,
// unless FLIGHTREC_REQUIRE_EBPF=1 (CI) turns that into a failure.
#include "flightrec/process/process_exits.h"

#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace {

using flightrec::process::ExitedProcess;
using flightrec::process::make_process_exit_watcher;
using flightrec::process::ProcessExitWatcher;

std::unique_ptr<ProcessExitWatcher> watcher_or_skip() {
  const char* required = std::getenv("FLIGHTREC_REQUIRE_EBPF");
  const bool must_run = required != nullptr && std::string(required) == "1";
  if (geteuid() != 0) {
    if (must_run) FAIL("FLIGHTREC_REQUIRE_EBPF=1 but not running as root");
    WARN("SKIPPED: the process exit watcher needs root");
    return nullptr;
  }
  auto watcher = make_process_exit_watcher();
  if (!watcher) {
    if (must_run) FAIL("process exit watcher did not start: " << watcher.error());
    WARN("SKIPPED: process exit watcher did not start: " << watcher.error());
    return nullptr;
  }
  return *std::move(watcher);
}

int64_t ns_of(clockid_t clock) {
  timespec now{};
  clock_gettime(clock, &now);
  return static_cast<int64_t>(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
}

uint64_t ns_of(const timeval& time) {
  return static_cast<uint64_t>(time.tv_sec) * 1'000'000'000 +
         static_cast<uint64_t>(time.tv_usec) * 1'000;
}

constexpr int64_t kMs = 1'000'000;

// Spins in user space until this thread has used `cpu_ns` of CPU.
void burn_cpu(int64_t cpu_ns) {
  const int64_t until = ns_of(CLOCK_THREAD_CPUTIME_ID) + cpu_ns;
  volatile uint64_t sink = 0;
  while (ns_of(CLOCK_THREAD_CPUTIME_ID) < until) {
    for (int i = 0; i < 200'000; ++i) sink = sink + static_cast<uint64_t>(i);
  }
}

struct Reaped {
  pid_t pid = 0;
  rusage usage{};
};

// Runs `body` in a child that exits with its result, then reaps it: when this returns the child's
// exit has happened and the kernel's accounting of it is in `usage`.
template <typename Body>
Reaped run_child(Body body) {
  Reaped child;
  child.pid = fork();
  if (child.pid == 0) _exit(body());
  REQUIRE(child.pid > 0);
  int status = 0;
  REQUIRE(wait4(child.pid, &status, 0, &child.usage) == child.pid);
  INFO("child " << child.pid << " status " << status);
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 0);
  return child;
}

std::vector<ExitedProcess> reports_of(const std::vector<ExitedProcess>& exits, pid_t pid) {
  std::vector<ExitedProcess> matching;
  std::copy_if(exits.begin(), exits.end(), std::back_inserter(matching),
               [pid](const ExitedProcess& p) { return p.pid == pid; });
  return matching;
}

// The kernel splits CPU time between user and system by timer-tick samples (4 ms at HZ=250), and
// wait4 counts the last moments of the exit the event cannot see: a tick either way.
bool close_to(uint64_t reported, uint64_t kernel) {
  const uint64_t difference = reported > kernel ? reported - kernel : kernel - reported;
  return difference <= kernel / 5 + 8 * kMs;
}

constexpr size_t kTouchedBytes = 32 << 20;

}  // namespace

TEST_CASE("exit watcher reports a short-lived child once with its identity and totals",
          "[network][ebpf][exits]") {
  auto watcher = watcher_or_skip();
  if (watcher == nullptr) return;
  const int64_t before_unix = ns_of(CLOCK_REALTIME);
  const Reaped child = run_child([] {
    prctl(PR_SET_NAME, "exit-burner");
    std::vector<char> memory(kTouchedBytes);
    for (size_t i = 0; i < memory.size(); i += 4096) memory[i] = 1;
    burn_cpu(50 * kMs);
    return memory[kTouchedBytes / 2] == 1 ? 0 : 1;
  });
  const int64_t after_unix = ns_of(CLOCK_REALTIME);

  std::vector<ExitedProcess> exits;
  watcher->drain(exits);
  const std::vector<ExitedProcess> reports = reports_of(exits, child.pid);
  REQUIRE(reports.size() == 1);
  const ExitedProcess& exited = reports.front();
  CHECK(exited.comm == "exit-burner");
  CHECK(exited.ppid == getpid());
  CHECK(exited.uid == getuid());
  // Only an OOM victim is marked, and only its record carries a cgroup and a limit
  // (tests/e2e/oom.sh has one).
  CHECK_FALSE(exited.oom_victim);
  CHECK(exited.memory_cgroup.empty());
  CHECK(exited.memory_limit_bytes == 0);

  const uint64_t kernel_user = ns_of(child.usage.ru_utime);
  const uint64_t kernel_system = ns_of(child.usage.ru_stime);
  INFO("user " << exited.cpu_user_ns << " (wait4 " << kernel_user << "), system "
               << exited.cpu_system_ns << " (wait4 " << kernel_system << ")");
  // The split is the kernel's tick sampling, so only the sum is sure to hold the burn.
  CHECK(exited.cpu_user_ns + exited.cpu_system_ns >= static_cast<uint64_t>(50 * kMs));
  CHECK(close_to(exited.cpu_user_ns, kernel_user));
  CHECK(close_to(exited.cpu_user_ns + exited.cpu_system_ns, kernel_user + kernel_system));

  INFO("start " << exited.start_time_unix_ns << " exit " << exited.exit_time_unix_ns << " window "
                << before_unix << ".." << after_unix);
  CHECK(exited.start_time_unix_ns >= before_unix - 10 * kMs);  // boot-time rounding
  CHECK(exited.exit_time_unix_ns - exited.start_time_unix_ns >= 50 * kMs);
  CHECK(exited.exit_time_unix_ns <= after_unix + 10 * kMs);

  INFO("peak rss " << exited.rss_bytes << ", wait4 maxrss KiB " << child.usage.ru_maxrss);
  CHECK(exited.rss_bytes >= kTouchedBytes);
  // The same bookkeeping wait4 reports from (the group's maxrss), give or take a few pages.
  const uint64_t kernel_peak = static_cast<uint64_t>(child.usage.ru_maxrss) * 1024;
  const uint64_t peak_difference = exited.rss_bytes > kernel_peak ? exited.rss_bytes - kernel_peak
                                                                  : kernel_peak - exited.rss_bytes;
  CHECK(peak_difference <= 64 * 1024);
  CHECK(watcher->dropped() == 0);
}

TEST_CASE("exit watcher reports a multi-threaded process once with all its threads' CPU time",
          "[network][ebpf][exits]") {
  auto watcher = watcher_or_skip();
  if (watcher == nullptr) return;
  const Reaped child = run_child([] {
    // Threads that ended before the exit: their time is already the group's.
    std::vector<std::thread> finished;
    for (int i = 0; i < 3; ++i) finished.emplace_back([] { burn_cpu(20 * kMs); });
    for (std::thread& thread : finished) thread.join();
    // Threads still there at exit_group: they die with the process, all at about the same time.
    std::atomic<int> started{0};
    for (int i = 0; i < 3; ++i) {
      std::thread([&started] {
        ++started;
        pause();
      }).detach();
    }
    while (started.load() < 3) std::this_thread::yield();
    burn_cpu(10 * kMs);
    return 0;
  });

  std::vector<ExitedProcess> exits;
  watcher->drain(exits);
  const std::vector<ExitedProcess> reports = reports_of(exits, child.pid);
  REQUIRE(reports.size() == 1);
  const ExitedProcess& exited = reports.front();
  const uint64_t cpu = exited.cpu_user_ns + exited.cpu_system_ns;
  const uint64_t kernel_cpu = ns_of(child.usage.ru_utime) + ns_of(child.usage.ru_stime);
  INFO("cpu " << cpu << " (wait4 " << kernel_cpu << ")");
  CHECK(cpu >= static_cast<uint64_t>(70 * kMs));  // 3 × 20 ms in the joined threads + 10 ms
  CHECK(close_to(cpu, kernel_cpu));
}

TEST_CASE("exit watcher reports each exit in one drain only", "[network][ebpf][exits]") {
  auto watcher = watcher_or_skip();
  if (watcher == nullptr) return;
  const Reaped first = run_child([] { return 0; });
  const Reaped second = run_child([] { return 0; });

  std::vector<ExitedProcess> earlier;
  watcher->drain(earlier);
  CHECK(reports_of(earlier, first.pid).size() == 1);
  CHECK(reports_of(earlier, second.pid).size() == 1);

  // Other processes on the machine may exit meanwhile; none reported before comes again.
  std::vector<ExitedProcess> later;
  watcher->drain(later);
  for (const ExitedProcess& process : later) {
    INFO("pid " << process.pid << " " << process.comm);
    CHECK(reports_of(earlier, process.pid).empty());
  }
}

TEST_CASE("exit watcher appends to what the caller already holds", "[network][ebpf][exits]") {
  auto watcher = watcher_or_skip();
  if (watcher == nullptr) return;
  std::vector<ExitedProcess> exits(1);
  exits.front().pid = -1;
  const Reaped child = run_child([] { return 0; });
  watcher->drain(exits);
  REQUIRE(exits.size() >= 2);
  CHECK(exits.front().pid == -1);
  CHECK(reports_of(exits, child.pid).size() == 1);
}
