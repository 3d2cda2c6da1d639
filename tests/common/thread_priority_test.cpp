#include "flightrec/common/thread_priority.h"

#include <linux/capability.h>
#include <sched.h>
#include <sys/resource.h>

#include <catch2/catch.hpp>
#include <string>
#include <thread>

#include "without_capabilities.h"

using namespace flightrec;

namespace {

// make_calling_thread_realtime in a forked child without CAP_SYS_NICE and with RLIMIT_RTPRIO at
// `limit`, so neither change reaches the test process. Returns "1" or "0" then the missing text,
// or "setup failed" when the child could not set the limit (raising it needs CAP_SYS_RESOURCE).
std::string realtime_in_child_without_cap(rlim_t limit) {
  return flightrec::testing::in_child_without({CAP_SYS_NICE}, [limit]() -> std::string {
    const rlimit rtprio{limit, limit};
    if (::setrlimit(RLIMIT_RTPRIO, &rtprio) != 0) return "setup failed";
    const Status realtime = priority::make_calling_thread_realtime();
    return (realtime ? "1" : "0") + realtime.error();
  });
}

}  // namespace

TEST_CASE("without CAP_SYS_NICE or RLIMIT_RTPRIO realtime is refused and says what is missing",
          "[thread_priority]") {
  const std::string answer = realtime_in_child_without_cap(0);
  REQUIRE(answer != "setup failed");
  CHECK(answer.starts_with("0"));
  CHECK(answer.find("CAP_SYS_NICE") != std::string::npos);
  CHECK(answer.find("RLIMIT_RTPRIO of at least 10") != std::string::npos);
}

TEST_CASE("an RLIMIT_RTPRIO of 10 is enough without CAP_SYS_NICE", "[thread_priority]") {
  const std::string answer = realtime_in_child_without_cap(priority::kSamplerFifoPriority);
  if (answer == "setup failed") {
    WARN("not run: raising RLIMIT_RTPRIO needs CAP_SYS_RESOURCE");
    return;
  }
  if (answer.find("a real-time budget") != std::string::npos) {
    WARN("not run: this machine refuses SCHED_FIFO to everyone: " << answer);
    return;
  }
  CHECK(answer == "1");
}

TEST_CASE("a realtime thread runs SCHED_FIFO at priority 10, and only that thread",
          "[thread_priority]") {
  Status realtime;
  int policy = -1;
  sched_param param{};
  std::thread([&] {
    realtime = priority::make_calling_thread_realtime();
    policy = ::sched_getscheduler(0);
    ::sched_getparam(0, &param);
  }).join();
  if (!realtime) {
    WARN("not run: SCHED_FIFO is not permitted here (" << realtime.error() << ")");
    return;
  }
  CHECK(policy == (SCHED_FIFO | SCHED_RESET_ON_FORK));
  CHECK(param.sched_priority == priority::kSamplerFifoPriority);
  CHECK(::sched_getscheduler(0) == SCHED_OTHER);  // the test's own thread is untouched
}

TEST_CASE("a background thread runs SCHED_BATCH at its nice value", "[thread_priority]") {
  bool changed = false;
  int policy = -1;
  std::thread([&] {
    changed = priority::make_calling_thread_batch();
    policy = ::sched_getscheduler(0);
  }).join();
  CHECK(changed);
  CHECK(policy == SCHED_BATCH);
  CHECK(::sched_getscheduler(0) == SCHED_OTHER);
}
