#include "flightrec/process/pid_allocation_watch.h"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>

#include "flightrec/process/process_sampler.h"

using namespace flightrec::sampler;
using namespace flightrec::process;

TEST_CASE("the last field of loadavg is the last allocated pid", "[pid_watch]") {
  CHECK(parse_loadavg_last_pid("0.08 0.03 0.01 2/187 4711\n") == 4711);
  CHECK(parse_loadavg_last_pid("0.08 0.03 0.01 2/187 4711") == 4711);
  CHECK_FALSE(parse_loadavg_last_pid("0.08 0.03 0.01 2/187 47x1\n"));
  CHECK_FALSE(parse_loadavg_last_pid("0.08 0.03 0.01 4711\n"));  // no running/total field
  CHECK_FALSE(parse_loadavg_last_pid(""));
  CHECK_FALSE(parse_loadavg_last_pid("0.08 0.03 0.01 2/187 -5\n"));
}

TEST_CASE("a procfs that is not ours (a fixture) is never trusted to skip the listing",
          "[pid_watch]") {
  PidAllocationWatch watch(FLIGHTREC_FIXTURES "/procs-tier");
  CHECK_FALSE(watch.usable());
  CHECK(watch.maybe_new_pids());
  CHECK(watch.maybe_new_pids());
}

TEST_CASE("on the live /proc a fork is always noticed", "[pid_watch]") {
  PidAllocationWatch watch("/proc");
  REQUIRE(watch.usable());
  CHECK(watch.maybe_new_pids());  // the first call knows nothing yet
  static_cast<void>(watch.maybe_new_pids());
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  ::waitpid(child, nullptr, 0);
  CHECK(watch.maybe_new_pids());
}

TEST_CASE("a process started after a tick with a skipped listing is in the next frame",
          "[pid_watch][process_sampler]") {
  ProcessSampler sampler(ProcRoot{}, {});
  ProcessFrame frame;
  sampler.sample(frame);
  sampler.sample(frame);  // on a quiet machine this one skips the listing
  int ready[2];
  REQUIRE(::pipe(ready) == 0);
  const pid_t child = ::fork();
  if (child == 0) {
    ::close(ready[0]);
    ::close(ready[1]);
    ::pause();
    ::_exit(0);
  }
  ::close(ready[1]);
  char byte = 0;
  static_cast<void>(::read(ready[0], &byte, 1));  // returns once the child closed its end
  ::close(ready[0]);
  sampler.sample(frame);
  const bool found = std::any_of(frame.processes.begin(), frame.processes.end(),
                                 [&](const ProcessRow& row) { return row.pid == child; });
  ::kill(child, SIGKILL);
  ::waitpid(child, nullptr, 0);
  CHECK(found);
}
