// The process tier over a bulk counter reader, on a fixture proc tree: counters come from the
// reader, identity (command line, cgroup, procfs's comm, start time) from the tree, once per
// process. The reader here plays back what a test sets; the real one (the BPF task iterator) is
// compared with /proc in tests/process/task_iterator_test.cpp.
#include "flightrec/process/task_counter_sampler.h"

#include <catch2/catch.hpp>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "fake_proc_tree.h"
#include "flightrec/config/config.h"

using flightrec::process::CmdlineRedactor;
using flightrec::process::KernelUnits;
using flightrec::process::ProcessFrame;
using flightrec::process::ProcessRow;
using flightrec::process::ProcessSamplerOptions;
using flightrec::process::TaskCounterReader;
using flightrec::process::TaskCounters;
using flightrec::process::TaskCounterSampler;
using flightrec::sampler::ProcRoot;
using flightrec::testing::FakeProcTree;

namespace {

constexpr uint64_t kTickNs = 10'000'000;  // USER_HZ 100
constexpr int64_t kBootTimeNs = 1796011918LL * 1'000'000'000;

// What the next read returns.
struct Script {
  std::vector<TaskCounters> processes;
  bool fail = false;
};

class PlaybackReader final : public TaskCounterReader {
 public:
  explicit PlaybackReader(const Script& script) : script_(script) {}
  flightrec::Status read(std::vector<TaskCounters>& out) override {
    if (script_.fail) return flightrec::Error{"the iterator broke"};
    out = script_.processes;
    return {};
  }

 private:
  const Script& script_;
};

// A live process of the fixture: its stat's starttime is 43810 ticks.
TaskCounters sleeper(int32_t pid, uint64_t start_ticks = 43810) {
  TaskCounters c;
  c.pid = pid;
  c.ppid = 1;
  c.state = 0x1;
  c.threads = 1;
  c.start_boottime_ns = start_ticks * kTickNs + 123;
  c.runtime_ns = 70 * kTickNs;
  c.utime_ns = 3 * kTickNs;
  c.stime_ns = 4 * kTickNs;
  c.rss_pages = 500;
  std::memcpy(c.comm.data(), "sleep", 6);
  return c;
}

struct Fixture {
  FakeProcTree tree = FakeProcTree::copy_of("procs-tier");
  Script script;
  TaskCounterSampler sampler = make(script, 8192);

  // The fixture's processes but 5195 and 5197, which the tests' reader gives: any other would be
  // a process the reader cannot see, read from /proc (tested on its own below).
  Fixture() {
    for (const char* pid : {"2", "5196", "5198", "5200", "5383", "5384", "6001"}) tree.remove(pid);
  }

  TaskCounterSampler make(const Script& s, uint32_t max_count) const {
    ProcRoot root;
    root.procfs = tree.root();
    ProcessSamplerOptions options;
    options.redact_cmdline = flightrec::config::Config{}.processes.redact_cmdline;
    options.units = KernelUnits{100, 4096};
    options.max_count = max_count;
    return TaskCounterSampler(root, options, std::make_unique<PlaybackReader>(s), "test");
  }

  ProcessFrame sample() {
    ProcessFrame frame;
    sampler.sample(frame);
    return frame;
  }
};

const ProcessRow* find_pid(const ProcessFrame& frame, int32_t pid) {
  const ProcessRow* found = nullptr;
  for (const ProcessRow& row : frame.processes) {
    if (row.pid != pid) continue;
    if (found != nullptr) return nullptr;  // two rows for one PID
    found = &row;
  }
  return found;
}

}  // namespace

TEST_CASE("TaskCounterSampler: counters from the reader, identity from /proc") {
  Fixture f;
  f.script.processes = {sleeper(5195), sleeper(5197)};
  const ProcessFrame frame = f.sample();
  REQUIRE(frame.processes.size() == 2);
  const ProcessRow* row = find_pid(frame, 5195);
  REQUIRE(row != nullptr);
  CHECK(row->comm == "sleep");
  CHECK(row->cmdline == "sleep 1000");
  CHECK(row->container_id == "4f6c2b1e9a8d7c3b2a1f0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d0c9b");
  CHECK(row->start_time_unix_ns == kBootTimeNs + 43810 * static_cast<int64_t>(kTickNs));
  CHECK(row->rss_bytes == 500 * 4096);      // the reader's, not the stat file's 410 pages
  CHECK(row->cpu_user_ns == 30 * kTickNs);  // 3:4 of 70 ticks
  CHECK(row->cpu_system_ns == 40 * kTickNs);
  CHECK(row->state == 'S');
  CHECK(f.sampler.backend() == "test");
  CHECK(f.sampler.stats().processes == 2);
  CHECK(f.sampler.stats().read_errors_total == 0);
}

TEST_CASE("TaskCounterSampler: /proc is read only at first sight and after exec") {
  Fixture f;
  f.script.processes = {sleeper(5195)};
  static_cast<void>(f.sample());
  // The tree changes but the comm does not: the identity read is not repeated.
  f.tree.file("5195/cmdline", std::string("sleep\0002000\0", 12));
  f.script.processes[0].rss_pages = 600;
  ProcessFrame frame = f.sample();
  REQUIRE(find_pid(frame, 5195) != nullptr);
  CHECK(find_pid(frame, 5195)->cmdline == "sleep 1000");
  CHECK(find_pid(frame, 5195)->rss_bytes == 600 * 4096);

  // exec: a new comm makes it read the command line again.
  std::memcpy(f.script.processes[0].comm.data(), "sleepier", 9);
  frame = f.sample();
  REQUIRE(find_pid(frame, 5195) != nullptr);
  CHECK(find_pid(frame, 5195)->cmdline == "sleep 2000");
}

TEST_CASE("TaskCounterSampler: a process gone from the read is reported exited once") {
  Fixture f;
  f.script.processes = {sleeper(5195), sleeper(5197)};
  static_cast<void>(f.sample());
  f.script.processes = {sleeper(5197)};
  ProcessFrame frame = f.sample();
  REQUIRE(find_pid(frame, 5195) != nullptr);
  CHECK(find_pid(frame, 5195)->exited);
  CHECK(find_pid(frame, 5195)->state == 'x');
  CHECK(find_pid(frame, 5195)->rss_bytes == 500 * 4096);  // the last values read
  CHECK(f.sampler.stats().vanished_total == 1);
  frame = f.sample();
  CHECK(find_pid(frame, 5195) == nullptr);
  CHECK(frame.processes.size() == 1);
}

TEST_CASE("TaskCounterSampler: a reused PID ends the old process, the new one comes next tick") {
  Fixture f;
  f.script.processes = {sleeper(5195)};
  static_cast<void>(f.sample());
  f.script.processes = {sleeper(5195, 50000)};
  ProcessFrame frame = f.sample();
  REQUIRE(find_pid(frame, 5195) != nullptr);
  CHECK(find_pid(frame, 5195)->exited);

  SECTION("while /proc still shows the old start time, the newcomer is not taken for it") {
    frame = f.sample();
    CHECK(find_pid(frame, 5195) == nullptr);
    CHECK(f.sampler.stats().vanished_total == 2);
  }
  SECTION("once /proc agrees, it is a new process") {
    const std::string stat =
        "5195 (sleep) S 1 5192 3159 0 -1 4194304 134 0 0 0 0 0 0 0 20 0 1 0 "
        "50000 2990080 410 18446744073709551615 0 0 0 0 0 0 0 0 0 0 0 0\n";
    f.tree.file("5195/stat", stat);
    frame = f.sample();
    REQUIRE(find_pid(frame, 5195) != nullptr);
    CHECK_FALSE(find_pid(frame, 5195)->exited);
    CHECK(find_pid(frame, 5195)->start_time_unix_ns ==
          kBootTimeNs + 50000 * static_cast<int64_t>(kTickNs));
  }
}

TEST_CASE("TaskCounterSampler: a PID without /proc directory is counted as vanished") {
  Fixture f;
  f.script.processes = {sleeper(5195), sleeper(5197), sleeper(7777)};
  const ProcessFrame frame = f.sample();
  CHECK(frame.processes.size() == 2);
  CHECK(find_pid(frame, 7777) == nullptr);
  CHECK(f.sampler.stats().vanished_total == 1);
  CHECK(f.sampler.stats().read_errors_total == 0);
}

TEST_CASE("TaskCounterSampler: processes beyond max_count are dropped and counted") {
  Fixture f;
  TaskCounterSampler small = f.make(f.script, 1);
  f.script.processes = {sleeper(5195), sleeper(5197)};
  ProcessFrame frame;
  small.sample(frame);
  CHECK(frame.processes.size() == 1);
  CHECK(frame.processes_dropped == 1);
  CHECK(small.stats().dropped_last_tick);
}

TEST_CASE("TaskCounterSampler: a failed read keeps the last rows and names the reader") {
  Fixture f;
  f.script.processes = {sleeper(5195), sleeper(5197)};
  static_cast<void>(f.sample());
  f.script.fail = true;
  const ProcessFrame frame = f.sample();
  CHECK(frame.processes.size() == 2);
  CHECK(f.sampler.stats().read_errors_total == 1);
  CHECK(f.sampler.stats().last_error == "test process read: the iterator broke");
  f.script.fail = false;
  CHECK(f.sample().processes.size() == 2);
}

TEST_CASE("TaskCounterSampler: rows come in PID order whatever order the reader gives") {
  Fixture f;
  f.script.processes = {sleeper(5197), sleeper(5195), sleeper(5197)};
  const ProcessFrame frame = f.sample();
  REQUIRE(frame.processes.size() == 2);
  CHECK(frame.processes[0].pid == 5195);
  CHECK(frame.processes[1].pid == 5197);
}

TEST_CASE("TaskCounterSampler: a process the reader cannot see is read from /proc") {
  Fixture f;
  f.script.processes = {sleeper(5195)};  // 5197 is listed in /proc but never read
  ProcessFrame frame = f.sample();
  REQUIRE(frame.processes.size() == 2);
  const ProcessRow* hidden = find_pid(frame, 5197);
  REQUIRE(hidden != nullptr);
  // Its stat and status as the /proc backend reports them.
  CHECK(hidden->comm == "sleep");
  CHECK(hidden->state == 'S');
  CHECK(hidden->ppid == 1);
  CHECK(hidden->pgrp == 5192);
  CHECK(hidden->session == 3159);
  CHECK(hidden->rss_bytes == 420 * 4096);
  CHECK(hidden->vsz_bytes == 2990080);
  CHECK(hidden->minor_faults == 292);
  CHECK(hidden->threads == 1);
  CHECK(hidden->start_time_unix_ns == kBootTimeNs + 43810 * static_cast<int64_t>(kTickNs));
  CHECK(hidden->io_read_bytes.has_value());

  // Read again every tick, and reported exited once it is gone.
  f.tree.file("5197/stat",
              "5197 (sleep) R 1 5192 3159 34817 -1 4194304 300 0 0 0 250 75 0 0 20 0 1 0 43810 "
              "2990080 430 18446744073709551615 0 0 0 0 0 0 0 0 0 0 0 0\n");
  frame = f.sample();
  REQUIRE(find_pid(frame, 5197) != nullptr);
  CHECK(find_pid(frame, 5197)->state == 'R');
  CHECK(find_pid(frame, 5197)->tty_nr == 34817);
  CHECK(find_pid(frame, 5197)->cpu_user_ns == 250 * kTickNs);
  CHECK(find_pid(frame, 5197)->cpu_system_ns == 75 * kTickNs);
  CHECK(find_pid(frame, 5197)->rss_bytes == 430 * 4096);
  f.tree.remove("5197");
  frame = f.sample();
  REQUIRE(find_pid(frame, 5197) != nullptr);
  CHECK(find_pid(frame, 5197)->exited);
  CHECK(f.sample().processes.size() == 1);
}

TEST_CASE(
    "TaskCounterSampler takes an offered redactor at its next tick, for every known process") {
  Fixture f;
  f.script.processes = {sleeper(5195)};
  CHECK(find_pid(f.sample(), 5195)->cmdline == "sleep 1000");
  f.sampler.offer_redactor(CmdlineRedactor("[0-9]+"));
  const ProcessFrame frame = f.sample();
  REQUIRE(find_pid(frame, 5195) != nullptr);
  CHECK(find_pid(frame, 5195)->cmdline == "sleep <redacted>");
}
