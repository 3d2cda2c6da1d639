#include <catch2/catch.hpp>

#include "flightrec/network/traffic_backend.h"

using namespace flightrec;
using process::ProcessFrame;
using process::ProcessRow;

namespace {
ProcessRow row(int32_t pid, const char* comm) {
  ProcessRow r;
  r.pid = pid;
  r.comm = comm;
  r.state = 'S';
  return r;
}
}  // namespace

TEST_CASE("traffic lands on the row of its pid and the unattributed bucket is kept", "[attach]") {
  ProcessFrame frame;
  frame.processes = {row(1, "init"), row(40, "sshd"), row(90, "curl")};
  network::TrafficReading reading;
  reading.processes.push_back({90, "curl", {100, 2000, 3, 4}, "lo", false});
  reading.unattributed = network::NetCounters{7, 8, 1, 1};
  network::attach_traffic(frame, reading);
  REQUIRE(frame.processes.size() == 3);
  CHECK_FALSE(frame.processes[0].net.has_value());
  REQUIRE(frame.processes[2].net.has_value());
  CHECK(frame.processes[2].net->rx_bytes == 2000);
  CHECK(frame.processes[2].net_device == "lo");
  CHECK(frame.unattributed == reading.unattributed);
}

TEST_CASE("a process the backend knows but /proc no longer has becomes an exited row in pid order",
          "[attach]") {
  ProcessFrame frame;
  frame.processes = {row(1, "init"), row(90, "curl")};
  network::TrafficReading reading;
  reading.processes.push_back({95, "short", {10, 0, 1, 0}, "", true});
  reading.processes.push_back({50, "gone", {5, 0, 1, 0}, "eth0", true});
  network::attach_traffic(frame, reading);
  REQUIRE(frame.processes.size() == 4);
  CHECK(frame.processes[1].pid == 50);
  CHECK(frame.processes[1].exited);
  CHECK(frame.processes[1].comm == "gone");
  CHECK(frame.processes[3].pid == 95);
  CHECK(frame.processes[3].net->tx_bytes == 10);
  CHECK_FALSE(frame.unattributed.has_value());
}

TEST_CASE("above the processes.max_count cut a pid is left out, not gone", "[attach]") {
  ProcessFrame frame;
  frame.processes = {row(1, "init"), row(40, "sshd")};
  frame.processes_dropped = 7;  // pids above 40 exist but were not recorded
  network::TrafficReading reading;
  reading.processes.push_back({90, "curl", {100, 2000, 3, 4}, "lo", false});
  reading.processes.push_back({30, "gone", {1, 1, 1, 1}, "", true});
  network::attach_traffic(frame, reading);
  REQUIRE(frame.processes.size() == 3);  // 30 is below the cut: really gone; 90 is just not kept
  CHECK(frame.processes[1].pid == 30);
  CHECK(frame.processes[1].exited);
  CHECK(frame.processes[2].pid == 40);
}
