#include "flightrec/recorder/process_recorder.h"

#include <netinet/in.h>
#include <sys/socket.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <thread>

#include "flightrec/common/fd.h"
#include "flightrec/common/stop_signal.h"
#include "flightrec/config/config.h"
#include "flightrec/store/process_ring.h"

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
