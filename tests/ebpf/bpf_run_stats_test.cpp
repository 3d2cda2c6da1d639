// The run statistics of our own BPF programs: fd discovery against fixture fd directories, and the
// kernel's counters against the real exit program (root only; skipped with a warning elsewhere
// unless FLIGHTREC_REQUIRE_EBPF=1).
#include "flightrec/ebpf/bpf_run_stats.h"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <optional>
#include <string>

#include "fake_proc_tree.h"
#include "flightrec/process/process_exits.h"

using namespace flightrec::ebpf;
using flightrec::process::make_process_exit_watcher;

namespace {

bool ebpf_required() {
  const char* required = std::getenv("FLIGHTREC_REQUIRE_EBPF");
  return required != nullptr && std::string(required) == "1";
}

std::optional<BpfProgramRun> exit_program(const std::vector<BpfProgramRun>& programs) {
  for (const auto& p : programs) {
    if (p.name == "process_exited") return p;
  }
  return std::nullopt;
}

}  // namespace

TEST_CASE("shouldFindEachBpfProgramAmongTheFdsOnce", "[network][bpf_run_stats]") {
  flightrec::testing::FakeProcTree proc;
  proc.symlink("self/fd/3", "anon_inode:bpf-prog")
      .symlink("self/fd/4", "anon_inode:bpf-map")
      .symlink("self/fd/5", "anon_inode:bpf-prog")
      .symlink("self/fd/6", "anon_inode:bpf-prog")
      .symlink("self/fd/7", "socket:[1234]")
      .symlink("self/fd/x", "anon_inode:bpf-prog");
  std::vector<int> asked;
  bool closed = false;  // fd 6 closed before the scan; fd 3 closed and reused after it
  const OwnBpfPrograms programs(proc.root() / "self/fd", [&](int fd) {
    asked.push_back(fd);
    if (fd == 6 || (fd == 3 && closed)) return std::optional<BpfProgramRun>{};
    return std::optional<BpfProgramRun>{
        {.id = static_cast<uint32_t>(fd == 5 ? 9 : 4), .name = fd == 5 ? "on_recv" : "on_send"}};
  });
  std::sort(asked.begin(), asked.end());
  CHECK(asked == std::vector<int>{3, 5, 6});  // only program fds, once each
  asked.clear();
  auto now = programs.read();
  CHECK(asked.size() == 2);  // no second scan
  REQUIRE(now.size() == 2);
  CHECK(now[0].name == "on_recv");
  CHECK(now[1].name == "on_send");
  closed = true;
  now = programs.read();
  REQUIRE(now.size() == 1);
  CHECK(now[0].name == "on_recv");
  CHECK(OwnBpfPrograms(proc.root() / "missing", read_bpf_program).empty());
}

TEST_CASE("shouldCountTheRunsOfOurExitProgram", "[network][bpf_run_stats]") {
  if (geteuid() != 0) {
    if (ebpf_required()) FAIL("FLIGHTREC_REQUIRE_EBPF=1 but not running as root");
    WARN("SKIPPED: BPF run statistics need root");
    return;
  }
  const auto watcher = make_process_exit_watcher();
  if (!watcher) {
    if (ebpf_required()) FAIL("process exit watcher did not start: " << watcher.error());
    WARN("SKIPPED: process exit watcher did not start: " << watcher.error());
    return;
  }
  const BpfStatsSwitch stats;
  REQUIRE(stats.on());
  const OwnBpfPrograms programs("/proc/self/fd", read_bpf_program);
  const auto before = exit_program(programs.read());
  REQUIRE(before);
  for (int i = 0; i < 5; ++i) {
    const pid_t child = fork();
    if (child == 0) _exit(0);
    REQUIRE(waitpid(child, nullptr, 0) == child);
  }
  const auto after = exit_program(programs.read());
  REQUIRE(after);
  CHECK(after->run_count >= before->run_count + 5);
  CHECK(after->run_time_ns > before->run_time_ns);
}
