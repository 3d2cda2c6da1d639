#include "flightrec/recorder/process_recorder.h"

#include <netinet/in.h>
#include <sys/socket.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <sstream>
#include <string>
#include <thread>

#include "fake_proc_tree.h"
#include "flightrec/common/fd.h"
#include "flightrec/common/stop_signal.h"
#include "flightrec/config/config.h"
#include "flightrec/store/process_ring.h"
#include "stderr_capture.h"

using namespace std::chrono_literals;
using flightrec::recorder::ProcessRecorder;

TEST_CASE("The socket tables are read at processes.sockets_rate; frames in between repeat them",
          "[recorder][process]") {
  // A listening socket of our own, so the table is never empty even on a bare machine.
  flightrec::Fd listener(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  REQUIRE(listener.valid());
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(::bind(listener.get(), reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
  REQUIRE(::listen(listener.get(), 1) == 0);

  flightrec::config::Config config;
  config.sampler.process_rate = 10ms;
  config.processes.sockets_rate = 50ms;  // every 5th process tick
  config.processes.short_lived = false;
  config.network.backend = "off";
  flightrec::store::ProcessRing ring({.duration = 10s, .max_bytes = 8 << 20});
  ProcessRecorder recorder(config, {}, ring);

  flightrec::StopSignal stop;
  uint64_t frames = 0;
  size_t first_sockets = 0;
  bool repeated = true;
  recorder.set_frame_observer([&](const flightrec::process::ProcessFrame& frame) {
    if (frames == 0) first_sockets = frame.sockets.size();
    // Within the first period no new dump happens: every frame shows the first table.
    if (frames > 0 && frames < 5 && frame.sockets.size() != first_sockets) repeated = false;
    if (++frames == 20) stop.request();
  });
  std::thread thread([&] { recorder.run(stop); });
  thread.join();

  CHECK(frames == 20);
  CHECK(recorder.stats().socket_reads_total == 4);  // ticks 0, 5, 10, 15
  CHECK(recorder.stats().socket_failures_total == 0);
  CHECK(first_sockets > 0);
  CHECK(repeated);
}

TEST_CASE("Failed process reads are logged a few at a time, however many ticks they fail in",
          "[recorder][process]") {
  // A new process each tick whose stat cannot be parsed: every tick's last failure names another
  // file, as when the process tier runs out of file descriptors (EMFILE on every process).
  const auto tree = flightrec::testing::FakeProcTree::copy_of("procs-tier");
  flightrec::config::Config config;
  config.sampler.process_rate = 10ms;
  config.processes.backend = "procfs";
  config.processes.short_lived = false;
  config.network.backend = "off";
  flightrec::store::ProcessRing ring({.duration = 10s, .max_bytes = 8 << 20});
  flightrec::testing::StderrCapture log;
  uint64_t failed_reads = 0;
  {
    ProcessRecorder recorder(config, {.procfs = tree.root()}, ring);
    flightrec::StopSignal stop;
    int frames = 0;
    recorder.set_frame_observer([&](const flightrec::process::ProcessFrame&) {
      tree.file(std::to_string(7000 + frames) + "/stat", "not a stat line");
      if (++frames == 20) stop.request();
    });
    std::thread thread([&] { recorder.run(stop); });
    thread.join();
    failed_reads = recorder.stats().read_errors_total;
  }
  CHECK(failed_reads >= 15);
  // The first at once, the rest counted in one line when the recorder goes (within the interval).
  CHECK(log.count("msg=\"process reads failed\"") == 2);
  CHECK(log.count("7000/stat") == 1);
  uint64_t counted = 0;
  std::istringstream lines(log.text());
  for (std::string line; std::getline(lines, line);) {
    const size_t at = line.find(" count=");
    if (line.find("process reads failed") != std::string::npos && at != std::string::npos) {
      counted += std::stoull(line.substr(at + 7));
    }
  }
  CHECK(counted == failed_reads);
}
