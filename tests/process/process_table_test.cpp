#include "flightrec/process/process_table.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <stdexcept>
#include <system_error>

#include "fake_proc_tree.h"

using flightrec::process::KernelUnits;
using flightrec::process::PidDir;
using flightrec::process::process_vanished;
using flightrec::process::ProcessInfo;
using flightrec::process::ProcessScan;
using flightrec::process::ProcessTable;
using flightrec::sampler::ProcRoot;
using flightrec::testing::FakeProcTree;
using flightrec::testing::fixture_path;

namespace {

const std::string kTestBinary = "test_process";

constexpr KernelUnits kUnits{100, 4096};

ProcRoot root_at(const std::filesystem::path& procfs) {
  ProcRoot root;
  root.procfs = procfs;
  return root;
}

const ProcessInfo* find_pid(const ProcessScan& scan, int32_t pid) {
  const auto it = std::find_if(scan.processes.begin(), scan.processes.end(),
                               [pid](const ProcessInfo& p) { return p.stat.pid == pid; });
  return it == scan.processes.end() ? nullptr : &*it;
}

}  // namespace

TEST_CASE("ProcessTable reads every process of the fixture tree in PID order", "[process_table]") {
  const ProcessTable table(root_at(fixture_path("procs-debian12")), kUnits);
  const ProcessScan scan = table.scan();
  CHECK(scan.listed == 8);
  CHECK(scan.vanished == 0);
  CHECK(scan.errors.empty());
  REQUIRE(scan.processes.size() == 8);
  CHECK(std::is_sorted(scan.processes.begin(), scan.processes.end(),
                       [](const auto& a, const auto& b) { return a.stat.pid < b.stat.pid; }));

  const ProcessInfo* python = find_pid(scan, 5198);
  REQUIRE(python != nullptr);
  CHECK(python->stat.comm == "python3");
  CHECK(python->status.vm_rss_bytes == 13520U * 1024U);
  CHECK(python->cmdline.text.find("--flag two words") != std::string::npos);
}

TEST_CASE("ProcessTable turns starttime into Unix time with btime and USER_HZ", "[process_table]") {
  const ProcessTable table(root_at(fixture_path("procs-debian12")), kUnits);
  CHECK(table.boot_time_unix_s() == 1796011918);
  const ProcessScan scan = table.scan();
  const ProcessInfo* sleep = find_pid(scan, 5195);
  REQUIRE(sleep != nullptr);
  // starttime 43810 ticks at 100 Hz = 438.10 s after boot.
  CHECK(sleep->start_time_unix_ns == 1796011918LL * 1'000'000'000 + 438'100'000'000LL);

  const ProcessTable fast_clock(root_at(fixture_path("procs-debian12")), KernelUnits{1000, 4096});
  const ProcessScan fast_scan = fast_clock.scan();
  const ProcessInfo* same = find_pid(fast_scan, 5195);
  REQUIRE(same != nullptr);
  CHECK(same->start_time_unix_ns == 1796011918LL * 1'000'000'000 + 43'810'000'000LL);
}

TEST_CASE("ProcessTable skips and counts a PID whose files are gone", "[process_table]") {
  const auto procfs = FakeProcTree::copy_of("procs-debian12");
  procfs.dir("31337");  // listed, but no stat inside
  procfs.file("31338/stat",
              std::string("31338 (half) S 1 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 5 ") +
                  "0 0\n");  // has stat, but status and cmdline are gone
  const ProcessScan scan = ProcessTable(root_at(procfs.root()), kUnits).scan();
  CHECK(scan.listed == 10);
  CHECK(scan.vanished == 2);
  CHECK(scan.errors.empty());
  CHECK(scan.processes.size() == 8);
  CHECK(find_pid(scan, 31337) == nullptr);
}

TEST_CASE("ProcessTable leaves out a malformed process and names its file", "[process_table]") {
  const auto procfs = FakeProcTree::copy_of("procs-debian12");
  procfs.file("5195/stat", "5195 (sleep) S 1 garbage\n");
  const ProcessScan scan = ProcessTable(root_at(procfs.root()), kUnits).scan();
  REQUIRE(scan.errors.size() == 1);
  CHECK_THAT(scan.errors[0], Catch::Matchers::Contains((procfs.root() / "5195/stat").string()));
  CHECK_THAT(scan.errors[0], Catch::Matchers::Contains("truncated"));
  CHECK(scan.processes.size() == 7);
  CHECK(scan.vanished == 0);
}

TEST_CASE("ProcessTable ignores entries that are not PIDs", "[process_table]") {
  const auto procfs = FakeProcTree::copy_of("procs-debian12");
  procfs.file("self/stat", "1 (init) S\n");
  procfs.file("12ab/stat", "1 (init) S\n");
  procfs.file("0/stat", "1 (init) S\n");
  std::vector<int32_t> pids;
  REQUIRE(ProcessTable(root_at(procfs.root()), kUnits).list_pids(pids) == 0);
  CHECK(pids == std::vector<int32_t>{2, 5195, 5196, 5197, 5198, 5200, 5383, 5384});
}

TEST_CASE("ProcessTable names the procfs it cannot use", "[process_table]") {
  try {
    ProcessTable table(root_at("/nonexistent/flightrec-proc"), kUnits);
    FAIL("expected an exception");
  } catch (const std::system_error& e) {
    CHECK_THAT(e.what(), Catch::Matchers::Contains("/nonexistent/flightrec-proc"));
  }
  const auto procfs = FakeProcTree::copy_of("procs-debian12");
  procfs.file("stat", "cpu  1 2 3\n");
  try {
    ProcessTable table(root_at(procfs.root()), kUnits);
    FAIL("expected an exception");
  } catch (const std::runtime_error& e) {
    CHECK_THAT(e.what(), Catch::Matchers::Contains((procfs.root() / "stat").string()));
    CHECK_THAT(e.what(), Catch::Matchers::Contains("btime"));
  }
}

TEST_CASE("ProcessTable finds this test process in the live /proc", "[process_table][live]") {
  const ProcessTable table{ProcRoot{}};
  const ProcessScan scan = table.scan();
  const ProcessInfo* self = find_pid(scan, ::getpid());
  REQUIRE(self != nullptr);
  CHECK(self->stat.comm == kTestBinary.substr(0, 15));  // the kernel keeps 15 bytes of a name
  CHECK(self->stat.ppid == ::getppid());
  CHECK(self->status.uid_effective == ::geteuid());
  CHECK(self->cmdline.text.find(kTestBinary) != std::string::npos);
  CHECK(self->start_time_unix_ns > table.boot_time_unix_s() * 1'000'000'000LL);
}

TEST_CASE("PidDir stops reading a process once it has exited, even if it was open",
          "[process_table][live]") {
  int ready[2];
  REQUIRE(::pipe(ready) == 0);
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    char byte = 0;
    static_cast<void>(::read(ready[0], &byte, 1));  // wait until the parent has the dir open
    ::_exit(0);
  }
  const ProcessTable table{ProcRoot{}};
  PidDir dir;
  REQUIRE(table.open(child, dir) == 0);
  std::string bytes;
  CHECK(dir.read("stat", bytes) == 0);
  CHECK(bytes.find(std::to_string(child) + " (") == 0);

  REQUIRE(::write(ready[1], "x", 1) == 1);
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  ::close(ready[0]);
  ::close(ready[1]);
  const int error = dir.read("stat", bytes);
  CHECK(process_vanished(error));
  const auto read = table.read(dir);
  REQUIRE(read);  // not an error
  CHECK_FALSE(read->has_value());
}
