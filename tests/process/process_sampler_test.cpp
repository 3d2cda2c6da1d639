#include "flightrec/process/process_sampler.h"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <string>

#include "fake_proc_tree.h"
#include "flightrec/config/config.h"

using flightrec::process::CmdlineRedactor;
using flightrec::process::KernelUnits;
using flightrec::process::ProcessFrame;
using flightrec::process::ProcessRow;
using flightrec::process::ProcessSampler;
using flightrec::process::ProcessSamplerOptions;
using flightrec::sampler::ProcRoot;
using flightrec::testing::FakeProcTree;
using flightrec::testing::fixture_path;

namespace {

const std::string kTestBinary = "test_process";

constexpr KernelUnits kUnits{100, 4096};
constexpr int64_t kBootTimeNs = 1796011918LL * 1'000'000'000;
const std::string kCrioId = "c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00";

ProcRoot root_at(const std::filesystem::path& procfs) {
  ProcRoot root;
  root.procfs = procfs;
  return root;
}

ProcessSamplerOptions fixture_options() {
  ProcessSamplerOptions options;
  options.redact_cmdline = flightrec::config::Config{}.processes.redact_cmdline;
  options.units = kUnits;
  return options;
}

ProcessSampler fixture_sampler(const std::filesystem::path& procfs,
                               ProcessSamplerOptions options = fixture_options()) {
  return ProcessSampler(root_at(procfs), std::move(options));
}

std::vector<const ProcessRow*> rows_of(const ProcessFrame& frame, int32_t pid) {
  std::vector<const ProcessRow*> rows;
  for (const ProcessRow& row : frame.processes) {
    if (row.pid == pid) rows.push_back(&row);
  }
  return rows;
}

const ProcessRow* find_pid(const ProcessFrame& frame, int32_t pid) {
  const auto rows = rows_of(frame, pid);
  return rows.size() == 1 ? rows[0] : nullptr;
}

std::vector<int32_t> pids_of(const ProcessFrame& frame) {
  std::vector<int32_t> pids;
  for (const ProcessRow& row : frame.processes) pids.push_back(row.pid);
  return pids;
}

int64_t realtime_ns() {
  timespec ts{};
  ::clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

// 6001's stat line with the given comm, utime and starttime.
std::string mysql_stat(const std::string& comm, int utime, int starttime) {
  return "6001 (" + comm + ") S 5198 6001 3159 34817 6001 4194304 111 0 22 0 " +
         std::to_string(utime) + " 75 0 0 20 0 4 0 " + std::to_string(starttime) +
         " 123456789 1000 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n";
}

}  // namespace

TEST_CASE("ProcessSampler lists every fixture process in ascending PID order",
          "[process_sampler]") {
  ProcessSampler sampler = fixture_sampler(fixture_path("procs-tier"));
  ProcessFrame frame;
  const int64_t before = realtime_ns();
  sampler.sample(frame);
  CHECK(frame.time_unix_ns >= before);
  CHECK(frame.time_unix_ns <= realtime_ns());
  CHECK(pids_of(frame) == std::vector<int32_t>{2, 5195, 5196, 5197, 5198, 5200, 5383, 5384, 6001});
  CHECK(frame.processes_dropped == 0);
  CHECK(frame.sockets.empty());
  CHECK_FALSE(frame.unattributed.has_value());
  CHECK(sampler.stats().processes == 9);
  CHECK(sampler.stats().read_errors_total == 0);
  CHECK(sampler.stats().last_error.empty());
}

TEST_CASE("ProcessSampler puts each /proc value in its field, converting ticks and pages",
          "[process_sampler]") {
  ProcessSampler sampler = fixture_sampler(fixture_path("procs-tier"));
  ProcessFrame frame;
  sampler.sample(frame);
  const ProcessRow* mysql = find_pid(frame, 6001);
  REQUIRE(mysql != nullptr);
  CHECK(mysql->ppid == 5198);
  CHECK(mysql->pgrp == 6001);
  CHECK(mysql->session == 3159);
  CHECK(mysql->tty_nr == 34817);
  CHECK(mysql->uid == 1000);
  CHECK(mysql->state == 'S');
  CHECK_FALSE(mysql->kernel_thread);
  CHECK_FALSE(mysql->exited);
  CHECK(mysql->comm == "mysql");
  CHECK(mysql->cmdline == "mysql <redacted> -u root");
  CHECK(mysql->cgroup == "/system.slice/crio-" + kCrioId + ".scope");
  CHECK(mysql->container_id == kCrioId);
  CHECK(mysql->start_time_unix_ns == kBootTimeNs + 500'000'000'000LL);  // 50000 ticks
  CHECK(mysql->cpu_user_ns == 2'500'000'000U);                          // 250 ticks
  CHECK(mysql->cpu_system_ns == 750'000'000U);                          // 75 ticks
  CHECK(mysql->rss_bytes == 1000U * 4096U);
  CHECK(mysql->vsz_bytes == 123456789U);
  CHECK(mysql->threads == 4);
  CHECK(mysql->minor_faults == 111);
  CHECK(mysql->major_faults == 22);
  CHECK(mysql->io_read_bytes == 512U);
  CHECK(mysql->io_write_bytes == 1024U);
  CHECK_FALSE(mysql->net.has_value());
  CHECK(mysql->net_device.empty());

  ProcessSamplerOptions other_units = fixture_options();
  other_units.units = KernelUnits{1000, 16384};
  ProcessSampler fast = fixture_sampler(fixture_path("procs-tier"), other_units);
  ProcessFrame fast_frame;
  fast.sample(fast_frame);
  const ProcessRow* same = find_pid(fast_frame, 6001);
  REQUIRE(same != nullptr);
  CHECK(same->cpu_user_ns == 250'000'000U);
  CHECK(same->rss_bytes == 1000U * 16384U);
  CHECK(same->start_time_unix_ns == kBootTimeNs + 50'000'000'000LL);
}

TEST_CASE("ProcessSampler derives cgroups and container ids of each fixture runtime",
          "[process_sampler]") {
  ProcessSampler sampler = fixture_sampler(fixture_path("procs-tier"));
  ProcessFrame frame;
  sampler.sample(frame);
  const ProcessRow* docker = find_pid(frame, 5195);
  const ProcessRow* kubernetes = find_pid(frame, 5197);
  const ProcessRow* v1_only = find_pid(frame, 5198);
  const ProcessRow* hybrid = find_pid(frame, 5383);
  REQUIRE((docker && kubernetes && v1_only && hybrid));
  CHECK(docker->container_id == "4f6c2b1e9a8d7c3b2a1f0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d0c9b");
  CHECK(kubernetes->container_id ==
        "9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d9c8b7a6f5e4d3c2b1a0f9e8d");
  const std::string docker_cgroupfs_id =
      "1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a2b";
  CHECK(v1_only->cgroup == "/docker/" + docker_cgroupfs_id);  // name=systemd, no 0:: line
  CHECK(v1_only->container_id == docker_cgroupfs_id);
  CHECK(hybrid->cgroup == "/user.slice");
  CHECK(hybrid->container_id.empty());
}

TEST_CASE("ProcessSampler marks kernel threads and leaves io empty where the file is absent",
          "[process_sampler]") {
  ProcessSampler sampler = fixture_sampler(fixture_path("procs-tier"));
  ProcessFrame frame;
  sampler.sample(frame);
  const ProcessRow* kthreadd = find_pid(frame, 2);
  const ProcessRow* no_io = find_pid(frame, 5196);
  const ProcessRow* zombie = find_pid(frame, 5200);
  REQUIRE((kthreadd && no_io && zombie));
  CHECK(kthreadd->kernel_thread);
  CHECK(kthreadd->cmdline.empty());
  CHECK(kthreadd->io_read_bytes == 0U);
  CHECK_FALSE(no_io->kernel_thread);
  CHECK(no_io->uid == 65534);
  CHECK_FALSE(no_io->io_read_bytes.has_value());
  CHECK_FALSE(no_io->io_write_bytes.has_value());
  CHECK(zombie->state == 'Z');
  CHECK_FALSE(zombie->exited);
  CHECK(sampler.stats().read_errors_total == 0);
}

TEST_CASE("ProcessSampler re-reads stat and io each tick but the command line only once",
          "[process_sampler]") {
  const auto tree = FakeProcTree::copy_of("procs-tier");
  ProcessSampler sampler = fixture_sampler(tree.root());
  ProcessFrame frame;
  sampler.sample(frame);
  CHECK(sampler.stats().held == 9);

  tree.file("6001/stat", mysql_stat("mysql", 300, 50000));
  tree.file("6001/io", "read_bytes: 4096\nwrite_bytes: 8192\n");
  tree.file("6001/cmdline", std::string("mysql\0--changed", 15));
  sampler.sample(frame);
  const ProcessRow* mysql = find_pid(frame, 6001);
  REQUIRE(mysql != nullptr);
  CHECK(mysql->cpu_user_ns == 3'000'000'000U);
  CHECK(mysql->io_read_bytes == 4096U);
  CHECK(mysql->io_write_bytes == 8192U);
  CHECK(mysql->cmdline == "mysql <redacted> -u root");
  CHECK(frame.processes.size() == 9);
}

TEST_CASE("ProcessSampler re-reads the command line after exec changes comm", "[process_sampler]") {
  const auto tree = FakeProcTree::copy_of("procs-tier");
  ProcessSampler sampler = fixture_sampler(tree.root());
  ProcessFrame frame;
  sampler.sample(frame);
  tree.file("6001/stat", mysql_stat("mysqld", 250, 50000));
  tree.file("6001/cmdline", std::string("mysqld\0--token=t0p\0", 19));
  sampler.sample(frame);
  const ProcessRow* mysqld = find_pid(frame, 6001);
  REQUIRE(mysqld != nullptr);
  CHECK(mysqld->comm == "mysqld");
  CHECK(mysqld->cmdline == "mysqld <redacted>");
  CHECK_FALSE(mysqld->exited);
}

TEST_CASE("ProcessSampler reports a vanished process once as exited, then forgets it",
          "[process_sampler]") {
  const auto tree = FakeProcTree::copy_of("procs-tier");
  ProcessSampler sampler = fixture_sampler(tree.root());
  ProcessFrame frame;
  sampler.sample(frame);
  const ProcessRow* alive = find_pid(frame, 5195);
  REQUIRE(alive != nullptr);
  const ProcessRow last_known = *alive;

  tree.remove("5195");
  sampler.sample(frame);
  const ProcessRow* gone = find_pid(frame, 5195);
  REQUIRE(gone != nullptr);
  CHECK(gone->exited);
  CHECK(gone->state == 'x');
  CHECK(gone->comm == last_known.comm);
  CHECK(gone->cmdline == last_known.cmdline);
  CHECK(gone->start_time_unix_ns == last_known.start_time_unix_ns);
  CHECK(gone->io_read_bytes == last_known.io_read_bytes);
  CHECK(frame.processes.size() == 9);
  CHECK(sampler.stats().vanished_total == 1);
  CHECK(sampler.stats().read_errors_total == 0);

  sampler.sample(frame);
  CHECK(rows_of(frame, 5195).empty());
  CHECK(frame.processes.size() == 8);
  CHECK(sampler.stats().vanished_total == 1);
}

TEST_CASE("ProcessSampler skips and counts a PID that is gone before its first read",
          "[process_sampler]") {
  const auto tree = FakeProcTree::copy_of("procs-tier");
  tree.dir("31337");  // listed, but no stat inside
  ProcessSampler sampler = fixture_sampler(tree.root());
  ProcessFrame frame;
  sampler.sample(frame);
  CHECK(rows_of(frame, 31337).empty());
  CHECK(frame.processes.size() == 9);
  CHECK(sampler.stats().vanished_total == 1);
  CHECK(sampler.stats().read_errors_total == 0);
}

TEST_CASE("ProcessSampler treats a PID whose start time changed as a new process",
          "[process_sampler]") {
  const auto tree = FakeProcTree::copy_of("procs-tier");
  ProcessSampler sampler = fixture_sampler(tree.root());
  ProcessFrame frame;
  sampler.sample(frame);
  REQUIRE(find_pid(frame, 6001) != nullptr);

  // Same PID, same comm, another process: only the start time tells.
  tree.file("6001/stat", mysql_stat("mysql", 1, 90000));
  tree.file("6001/cmdline", std::string("mysql\0-e\0select 1\0", 18));
  sampler.sample(frame);
  const auto rows = rows_of(frame, 6001);
  REQUIRE(rows.size() == 1);  // never two rows for one PID in a frame
  CHECK(rows[0]->exited);
  CHECK(rows[0]->cmdline == "mysql <redacted> -u root");
  CHECK(rows[0]->start_time_unix_ns == kBootTimeNs + 500'000'000'000LL);

  sampler.sample(frame);
  const ProcessRow* reused = find_pid(frame, 6001);
  REQUIRE(reused != nullptr);
  CHECK_FALSE(reused->exited);
  CHECK(reused->start_time_unix_ns == kBootTimeNs + 900'000'000'000LL);
  CHECK(reused->cmdline == "mysql -e select 1");
  CHECK(reused->cpu_user_ns == 10'000'000U);
}

TEST_CASE("ProcessSampler keeps the lowest PIDs up to max_count and counts the rest",
          "[process_sampler]") {
  ProcessSamplerOptions options = fixture_options();
  options.max_count = 3;
  ProcessSampler sampler = fixture_sampler(fixture_path("procs-tier"), options);
  ProcessFrame frame;
  for (int tick = 0; tick < 2; ++tick) {
    sampler.sample(frame);
    CHECK(pids_of(frame) == std::vector<int32_t>{2, 5195, 5196});
    CHECK(frame.processes_dropped == 6);
    CHECK(sampler.stats().held == 3);
  }
}

TEST_CASE("ProcessSampler falls back to open-read-close when it may hold no more fds",
          "[process_sampler]") {
  const auto tree = FakeProcTree::copy_of("procs-tier");
  ProcessSamplerOptions few_fds = fixture_options();
  few_fds.max_held_fds = 6;  // two processes with directory, stat and io
  ProcessSampler limited = fixture_sampler(tree.root(), few_fds);
  ProcessSampler unlimited = fixture_sampler(tree.root());
  ProcessFrame limited_frame;
  ProcessFrame unlimited_frame;
  limited.sample(limited_frame);
  unlimited.sample(unlimited_frame);
  CHECK(limited_frame.processes == unlimited_frame.processes);
  CHECK(limited.stats().held == 2);
  CHECK(limited.stats().fd_fallbacks == 7);

  tree.file("6001/stat", mysql_stat("mysql", 400, 50000));
  tree.remove("5384");
  limited.sample(limited_frame);
  unlimited.sample(unlimited_frame);
  CHECK(limited_frame.processes == unlimited_frame.processes);
  REQUIRE(find_pid(limited_frame, 6001) != nullptr);
  CHECK(find_pid(limited_frame, 6001)->cpu_user_ns == 4'000'000'000U);
  REQUIRE(find_pid(limited_frame, 5384) != nullptr);
  CHECK(find_pid(limited_frame, 5384)->exited);
  CHECK(limited.stats().fd_fallbacks == 7);
}

TEST_CASE("ProcessSampler counts a malformed stat, names it and keeps the last row",
          "[process_sampler]") {
  const auto tree = FakeProcTree::copy_of("procs-tier");
  ProcessSampler sampler = fixture_sampler(tree.root());
  ProcessFrame frame;
  sampler.sample(frame);
  tree.file("6001/stat", "6001 (mysql) S 1 garbage\n");
  sampler.sample(frame);
  CHECK(sampler.stats().read_errors_total == 1);
  CHECK_THAT(sampler.stats().last_error,
             Catch::Matchers::Contains((tree.root() / "6001/stat").string()));
  CHECK_THAT(sampler.stats().last_error, Catch::Matchers::Contains("truncated"));
  const ProcessRow* mysql = find_pid(frame, 6001);
  REQUIRE(mysql != nullptr);
  CHECK_FALSE(mysql->exited);
  CHECK(mysql->cpu_user_ns == 2'500'000'000U);
}

TEST_CASE("ProcessSampler finds this test process in the live /proc", "[process_sampler][live]") {
  ProcessSampler sampler(ProcRoot{}, ProcessSamplerOptions{});
  ProcessFrame frame;
  sampler.sample(frame);
  const ProcessRow* self = find_pid(frame, ::getpid());
  REQUIRE(self != nullptr);
  CHECK(self->comm == kTestBinary.substr(0, 15));  // the kernel keeps 15 bytes of a name
  CHECK(self->ppid == ::getppid());
  CHECK(self->uid == ::getuid());
  CHECK(self->state == 'R');
  CHECK_FALSE(self->exited);
  CHECK_FALSE(self->kernel_thread);
  CHECK(self->cmdline.find(kTestBinary) != std::string::npos);
  CHECK(self->rss_bytes > 1024U * 1024U);
  CHECK(self->vsz_bytes > self->rss_bytes);
  CHECK(self->threads >= 1);
  CHECK(self->start_time_unix_ns > 0);
  CHECK(self->start_time_unix_ns <= frame.time_unix_ns);
  CHECK(self->io_read_bytes.has_value());  // a process may always read its own io
  CHECK(self->cgroup.starts_with("/"));
  CHECK(std::is_sorted(frame.processes.begin(), frame.processes.end(),
                       [](const auto& a, const auto& b) { return a.pid < b.pid; }));
  CHECK(frame.time_unix_ns <= realtime_ns());
  CHECK(sampler.stats().last_sample_duration_ns > 0);

  const ProcessRow* any_kernel_thread = nullptr;
  for (const ProcessRow& row : frame.processes) {
    if (row.kernel_thread) any_kernel_thread = &row;
  }
  if (any_kernel_thread != nullptr) CHECK(any_kernel_thread->cmdline.empty());
}

TEST_CASE("ProcessSampler reports a killed child once as exited, then never again",
          "[process_sampler][live]") {
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    ::pause();
    ::_exit(0);
  }
  ProcessSampler sampler(ProcRoot{}, ProcessSamplerOptions{});
  ProcessFrame frame;
  sampler.sample(frame);
  const ProcessRow* alive = find_pid(frame, child);
  REQUIRE(alive != nullptr);
  CHECK_FALSE(alive->exited);
  CHECK(alive->ppid == ::getpid());

  REQUIRE(::kill(child, SIGKILL) == 0);
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  sampler.sample(frame);
  const ProcessRow* gone = find_pid(frame, child);
  REQUIRE(gone != nullptr);
  CHECK(gone->exited);
  CHECK(gone->state == 'x');
  CHECK(gone->ppid == ::getpid());
  const uint64_t vanished = sampler.stats().vanished_total;
  CHECK(vanished >= 1);

  sampler.sample(frame);
  CHECK(rows_of(frame, child).empty());
  CHECK(sampler.stats().read_errors_total == 0);
}

TEST_CASE("ProcessSampler leaves io empty for processes it may not read",
          "[process_sampler][live]") {
  // Run as an unprivileged user in a child: root may read every process's io.
  const pid_t parent = ::getpid();
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    constexpr uid_t kNobody = 65534;
    if (::getuid() == 0 && ::setresuid(kNobody, kNobody, kNobody) != 0) ::_exit(10);
    // Changing uid made this process undumpable, which hides even its own io from it.
    if (::prctl(PR_SET_DUMPABLE, 1) != 0) ::_exit(10);
    ProcessSampler sampler(ProcRoot{}, ProcessSamplerOptions{});
    ProcessFrame frame;
    sampler.sample(frame);
    const ProcessRow* self = find_pid(frame, ::getpid());
    const ProcessRow* other = find_pid(frame, parent);
    if (self == nullptr || other == nullptr) ::_exit(11);
    if (!self->io_read_bytes.has_value()) ::_exit(12);
    // The parent runs as another user only when the test started as root.
    if (other->uid != ::getuid() && other->io_read_bytes.has_value()) ::_exit(13);
    if (sampler.stats().read_errors_total != 0) ::_exit(14);
    ::_exit(0);
  }
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
}

TEST_CASE("ProcessSampler takes an offered redactor at its next tick, for every known process",
          "[process_sampler]") {
  ProcessSampler sampler = fixture_sampler(fixture_path("procs-tier"));
  ProcessFrame frame;
  sampler.sample(frame);
  REQUIRE(find_pid(frame, 6001) != nullptr);
  CHECK(find_pid(frame, 6001)->cmdline == "mysql <redacted> -u root");
  // The user name was let through; a reload now hides it too, in the process already known.
  sampler.offer_redactor(CmdlineRedactor("--password=[^ ]+|-u [^ ]+"));
  sampler.sample(frame);
  REQUIRE(find_pid(frame, 6001) != nullptr);
  CHECK(find_pid(frame, 6001)->cmdline == "mysql <redacted> <redacted>");
  // Taken once: the next tick keeps it.
  sampler.sample(frame);
  CHECK(find_pid(frame, 6001)->cmdline == "mysql <redacted> <redacted>");
}
