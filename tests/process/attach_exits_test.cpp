#include <catch2/catch.hpp>

#include "flightrec/process/process_exits.h"

using namespace flightrec;
using process::ExitedProcess;
using process::ProcessFrame;
using process::ProcessRow;

namespace {
ProcessRow alive(int32_t pid) {
  ProcessRow row;
  row.pid = pid;
  row.state = 'S';
  row.cpu_user_ns = 5;
  return row;
}
ExitedProcess exit_of(int32_t pid, const char* comm, uint64_t cpu_ns) {
  ExitedProcess e;
  e.pid = pid;
  e.ppid = 1;
  e.comm = comm;
  e.cpu_user_ns = cpu_ns;
  e.rss_bytes = 4096;
  return e;
}
}  // namespace

TEST_CASE("a process that lived between two ticks gets an exited row in pid order", "[exits]") {
  ProcessFrame frame;
  frame.processes = {alive(1), alive(50)};
  const std::vector<ExitedProcess> exits{exit_of(70, "make", 30), exit_of(20, "cc1", 900)};
  CHECK(process::attach_exits(frame, exits) == 2);
  REQUIRE(frame.processes.size() == 4);
  CHECK(frame.processes[1].pid == 20);
  CHECK(frame.processes[1].exited);
  CHECK(frame.processes[1].state == 'x');
  CHECK(frame.processes[1].comm == "cc1");
  CHECK(frame.processes[1].cpu_user_ns == 900);
  CHECK(frame.processes[3].pid == 70);
}

TEST_CASE("the sampler's own exited row takes the kernel's final totals; a live row is kept",
          "[exits]") {
  ProcessFrame frame;
  ProcessRow gone = alive(30);
  gone.exited = true;
  gone.state = 'x';
  frame.processes = {gone, alive(40)};
  const std::vector<ExitedProcess> exits{exit_of(30, "job", 700), exit_of(40, "old", 999)};
  CHECK(process::attach_exits(frame, exits) == 0);
  REQUIRE(frame.processes.size() == 2);
  CHECK(frame.processes[0].cpu_user_ns == 700);
  CHECK(frame.processes[0].rss_bytes == 4096);
  // Pid 40 is alive in the frame: the exit was an earlier process that used the same pid.
  CHECK(frame.processes[1].cpu_user_ns == 5);
  CHECK_FALSE(frame.processes[1].exited);
}

TEST_CASE("a pid reused between two ticks keeps its latest run", "[exits]") {
  ProcessFrame frame;
  const std::vector<ExitedProcess> exits{exit_of(9, "first", 1), exit_of(9, "second", 2)};
  CHECK(process::attach_exits(frame, exits) == 1);
  REQUIRE(frame.processes.size() == 1);
  CHECK(frame.processes[0].comm == "second");
}

TEST_CASE("exits above the processes.max_count cut are not added", "[exits]") {
  ProcessFrame frame;
  frame.processes = {alive(1), alive(50)};
  frame.processes_dropped = 3;
  const std::vector<ExitedProcess> exits{exit_of(70, "beyond", 1), exit_of(20, "below", 2)};
  CHECK(process::attach_exits(frame, exits) == 1);
  REQUIRE(frame.processes.size() == 3);
  CHECK(frame.processes[1].comm == "below");
}
