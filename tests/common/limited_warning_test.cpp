#include "flightrec/common/limited_warning.h"

#include <catch2/catch.hpp>
#include <sstream>
#include <thread>
#include <vector>

#include "stderr_capture.h"

using namespace flightrec;
using namespace std::chrono_literals;
using Clock = log::LimitedWarning::Clock;
using flightrec::testing::StderrCapture;

TEST_CASE("10,000 events at once are two lines: the first, then the count of the rest", "[log]") {
  StderrCapture captured;
  const Clock::time_point t0 = Clock::now();
  {
    log::LimitedWarning warning("incident dropped", 10s);
    for (int i = 0; i < 10000; ++i) warning.note("rule" + std::to_string(i), t0);
    CHECK(captured.count("incident dropped") == 1);
    CHECK(captured.count("count=1 names=rule0") == 1);
    // Within the interval nothing more is written; flush says when it will be.
    CHECK(warning.flush(t0 + 9s) == t0 + 10s);
    CHECK(captured.count("incident dropped") == 1);
    CHECK_FALSE(warning.flush(t0 + 10s).has_value());
    CHECK(captured.count(R"(count=9999 names="rule1, rule2, rule3, rule4, rule5, ...")") == 1);
    CHECK_FALSE(warning.flush(t0 + 30s).has_value());  // nothing counted: nothing written
  }
  CHECK(captured.count("incident dropped") == 2);
}

TEST_CASE("events noted together count each, under the one name given", "[log]") {
  StderrCapture captured;
  const Clock::time_point t0 = Clock::now();
  {
    log::LimitedWarning warning("process reads failed", 10s);
    warning.note("/proc/7/stat: Too many open files", 300, t0);
    warning.note("/proc/9/stat: Too many open files", 250, t0 + 1s);
    CHECK(captured.count(R"(count=300 names="/proc/7/stat: Too many open files, ...")") == 1);
  }
  CHECK(captured.count(R"(count=250 names="/proc/9/stat: Too many open files, ...")") == 1);
}

TEST_CASE("a steady stream of events is one line per interval and loses no count", "[log]") {
  StderrCapture captured;
  const Clock::time_point t0 = Clock::now();
  {
    log::LimitedWarning warning("alert not captured", 1s);
    // One event every 100 ms for 10 s: the first at once, then a line at each second.
    for (int i = 0; i < 100; ++i) warning.note("a", t0 + i * 100ms);
    CHECK(captured.count("alert not captured") == 10);
  }  // the destructor writes the last second's events
  CHECK(captured.count("alert not captured") == 11);
  uint64_t total = 0;
  std::istringstream lines(captured.text());
  for (std::string line; std::getline(lines, line);) {
    const auto at = line.find("count=");
    if (at != std::string::npos) total += std::stoull(line.substr(at + 6));
  }
  CHECK(total == 100);
}

TEST_CASE("an event after a quiet interval is written at once, with few names bare", "[log]") {
  StderrCapture captured;
  const Clock::time_point t0 = Clock::now();
  log::LimitedWarning warning("x", 1s);
  warning.note("first", t0);
  warning.note("second", t0 + 100ms);
  warning.note("third", t0 + 2s);  // the interval has passed: both counted ones are written
  CHECK(captured.count(R"(count=2 names="second, third")") == 1);
  warning.note("later", t0 + 10s);
  CHECK(captured.count("count=1 names=later") == 1);
}

TEST_CASE("notes from many threads are all counted", "[log]") {
  StderrCapture captured;
  {
    log::LimitedWarning warning("burst", 1h);
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
      threads.emplace_back([&warning] {
        for (int i = 0; i < 1000; ++i) warning.note("n");
      });
    }
    for (auto& thread : threads) thread.join();
  }
  CHECK(captured.count("msg=burst count=1 ") == 1);
  CHECK(captured.count("msg=burst count=3999 ") == 1);
}

TEST_CASE("a warning told another level writes its lines at that level", "[log]") {
  StderrCapture captured;
  {
    log::LimitedWarning warning("gate failed", 1h, log::Level::error);
    warning.note("socketpair: Too many open files");
    warning.note("epoll_ctl: Bad file descriptor");
  }
  CHECK(captured.count(R"(level=error msg="gate failed" count=1 names="socketpair: Too many)") ==
        1);
  CHECK(captured.count(R"(level=error msg="gate failed" count=1 names="epoll_ctl: Bad)") == 1);
  CHECK(captured.count("level=warn") == 0);
}
