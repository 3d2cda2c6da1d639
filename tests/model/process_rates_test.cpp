#include "flightrec/model/process_rates.h"

#include <catch2/catch.hpp>

using flightrec::model::process_rates;
using flightrec::process::NetCounters;
using flightrec::process::ProcessFrame;
using flightrec::process::ProcessRow;

namespace {

constexpr int64_t kSecond = 1'000'000'000;
constexpr int64_t kBoot = 1'700'000'000 * kSecond;  // a realistic start time, never 0

ProcessRow process(int32_t pid, int64_t started, uint64_t cpu_ns) {
  ProcessRow row;
  row.pid = pid;
  row.start_time_unix_ns = started;
  row.cpu_user_ns = cpu_ns / 4;
  row.cpu_system_ns = cpu_ns - cpu_ns / 4;
  return row;
}

ProcessFrame frame(int64_t time, std::vector<ProcessRow> rows) {
  return {.time_unix_ns = time, .processes = std::move(rows)};
}

}  // namespace

TEST_CASE("process_rates divides each counter's growth by the time between the frames",
          "[process_rates]") {
  auto then = process(7, kBoot, 1 * kSecond);
  then.io_read_bytes = 1000;
  then.io_write_bytes = 0;
  then.net = NetCounters{.tx_bytes = 100, .rx_bytes = 200, .tx_packets = 1, .rx_packets = 2};
  auto now = process(7, kBoot, 2 * kSecond);  // one CPU second in two: half a core
  now.io_read_bytes = 5000;
  now.io_write_bytes = 800;
  now.net = NetCounters{.tx_bytes = 4100, .rx_bytes = 200, .tx_packets = 9, .rx_packets = 6};
  const auto earlier = frame(kBoot + 10 * kSecond, {then});
  const auto later = frame(kBoot + 12 * kSecond, {now});

  const auto rates = process_rates(&earlier, later);
  CHECK(rates.seconds == Approx(2.0));
  REQUIRE(rates.processes.size() == 1);
  const auto& p = rates.processes[0];
  CHECK(*p.cpu == Approx(0.5));
  CHECK(*p.read_bytes == Approx(2000.0));
  CHECK(*p.write_bytes == Approx(400.0));
  CHECK(*p.net.tx_bytes == Approx(2000.0));
  CHECK(*p.net.rx_bytes == Approx(0.0));
  CHECK(*p.net.tx_packets == Approx(4.0));
  CHECK(*p.net.rx_packets == Approx(2.0));
}

TEST_CASE("process_rates keeps the later frame's row order, one entry per row", "[process_rates]") {
  const auto earlier = frame(kBoot + kSecond, {process(3, kBoot, 0), process(9, kBoot, 0)});
  const auto later = frame(kBoot + 2 * kSecond, {process(3, kBoot, kSecond / 10),
                                                 process(5, kBoot - kSecond, 0),  // no rate
                                                 process(9, kBoot, kSecond)});
  const auto rates = process_rates(&earlier, later);
  REQUIRE(rates.processes.size() == 3);
  CHECK(*rates.processes[0].cpu == Approx(0.1));
  CHECK_FALSE(rates.processes[1].cpu.has_value());
  CHECK(*rates.processes[2].cpu == Approx(1.0));
}

TEST_CASE("process_rates counts a process born between the frames from zero", "[process_rates]") {
  const auto earlier = frame(kBoot + 10 * kSecond, {});
  auto born = process(42, kBoot + 10 * kSecond + kSecond / 2, kSecond / 4);
  born.io_read_bytes = 3000;
  born.net = NetCounters{.tx_bytes = 500, .rx_bytes = 0, .tx_packets = 5, .rx_packets = 0};
  const auto later = frame(kBoot + 11 * kSecond, {born});

  const auto rates = process_rates(&earlier, later);
  const auto& p = rates.processes.at(0);
  // Over the whole interval, not over its half second of life: as htop shows a new process.
  CHECK(*p.cpu == Approx(0.25));
  CHECK(*p.read_bytes == Approx(3000.0));
  CHECK_FALSE(p.write_bytes.has_value());  // a counter it does not have stays unknown
  CHECK(*p.net.tx_bytes == Approx(500.0));
  CHECK(*p.net.tx_packets == Approx(5.0));
}

TEST_CASE("process_rates gives a reused pid a rate only when its new process was born after",
          "[process_rates]") {
  const int64_t then = kBoot + 10 * kSecond;
  const auto earlier = frame(then, {process(7, kBoot, 50 * kSecond), process(8, kBoot, 0)});
  SECTION("born after the earlier frame: from zero, not from the old process's counters") {
    const auto later = frame(then + kSecond, {process(7, then + kSecond / 2, kSecond / 5)});
    CHECK(*process_rates(&earlier, later).processes.at(0).cpu == Approx(0.2));
  }
  SECTION("started before the earlier frame, yet not in it: nothing to compare with") {
    const auto later = frame(then + kSecond, {process(8, then - 2 * kSecond, 80 * kSecond)});
    CHECK_FALSE(process_rates(&earlier, later).processes.at(0).cpu.has_value());
  }
  SECTION("started less than btime's second before the earlier frame: new, its start rounded") {
    // /proc start times are whole-second btime plus ticks, rounded down: this one may be newer.
    const auto later = frame(then + kSecond, {process(8, then - kSecond / 2, kSecond / 10)});
    CHECK(*process_rates(&earlier, later).processes.at(0).cpu == Approx(0.1));
  }
}

TEST_CASE("process_rates picks the row of the same start time among repeated pids",
          "[process_rates]") {
  const int64_t then = kBoot + 10 * kSecond;
  // The tick that found pid 7 gone also found its successor: both rows carry pid 7.
  const auto earlier = frame(then, {process(7, kBoot, 90 * kSecond), process(7, then - 1, 0)});
  const auto later = frame(then + kSecond, {process(7, then - 1, kSecond / 2)});
  CHECK(*process_rates(&earlier, later).processes.at(0).cpu == Approx(0.5));
}

TEST_CASE("process_rates gives no rate for a counter that went backwards", "[process_rates]") {
  auto then = process(7, kBoot, 5 * kSecond);
  then.io_read_bytes = 9000;
  then.net = NetCounters{.tx_bytes = 100, .rx_bytes = 900, .tx_packets = 1, .rx_packets = 9};
  auto now = process(7, kBoot, 4 * kSecond);
  now.io_read_bytes = 10000;
  now.net = NetCounters{.tx_bytes = 300, .rx_bytes = 100, .tx_packets = 3, .rx_packets = 1};
  const auto earlier = frame(kBoot + kSecond, {then});
  const auto later = frame(kBoot + 2 * kSecond, {now});

  const auto rates = process_rates(&earlier, later);
  const auto& p = rates.processes.at(0);
  CHECK_FALSE(p.cpu.has_value());
  CHECK(*p.read_bytes == Approx(1000.0));  // the others are unaffected
  CHECK(*p.net.tx_bytes == Approx(200.0));
  CHECK_FALSE(p.net.rx_bytes.has_value());
  CHECK(*p.net.tx_packets == Approx(2.0));
  CHECK_FALSE(p.net.rx_packets.has_value());
}

TEST_CASE("process_rates gives no io or network rate where either side is unknown",
          "[process_rates]") {
  auto then = process(7, kBoot, 0);
  then.io_write_bytes = 10;  // io known before, not after
  auto now = process(7, kBoot, kSecond);
  now.io_read_bytes = 10;  // io known after, not before
  now.net = NetCounters{.tx_bytes = 10, .rx_bytes = 10, .tx_packets = 1, .rx_packets = 1};
  const auto earlier = frame(kBoot + kSecond, {then});
  const auto later = frame(kBoot + 2 * kSecond, {now});

  const auto rates = process_rates(&earlier, later);
  const auto& p = rates.processes.at(0);
  CHECK(*p.cpu == Approx(1.0));
  CHECK_FALSE(p.read_bytes.has_value());
  CHECK_FALSE(p.write_bytes.has_value());
  CHECK_FALSE(p.net.tx_bytes.has_value());
  CHECK_FALSE(p.net.rx_packets.has_value());
}

TEST_CASE("process_rates counts traffic from zero when the backend had seen none of it before",
          "[process_rates]") {
  auto earlier = frame(kBoot + kSecond, {process(7, kBoot, 0)});  // no `net`: nothing seen yet
  auto now = process(7, kBoot, 0);
  now.net = NetCounters{.tx_bytes = 4096, .rx_bytes = 0, .tx_packets = 4, .rx_packets = 0};
  const auto later = frame(kBoot + 3 * kSecond, {now});
  SECTION("a backend read the earlier frame (it set unattributed): the process had moved nothing") {
    earlier.unattributed = NetCounters{};
    const auto rates = process_rates(&earlier, later);
    CHECK(*rates.processes.at(0).net.tx_bytes == Approx(2048.0));
    CHECK(*rates.processes.at(0).net.tx_packets == Approx(2.0));
  }
  SECTION("no backend reading in the earlier frame: its traffic then is unknown") {
    CHECK_FALSE(process_rates(&earlier, later).processes.at(0).net.tx_bytes.has_value());
  }
}

TEST_CASE("process_rates matches a backend-only row by pid, or counts it from zero when new",
          "[process_rates]") {
  const int64_t then = kBoot + 10 * kSecond;
  auto alive = process(7, kBoot, 3 * kSecond);
  alive.net = NetCounters{.tx_bytes = 1000, .rx_bytes = 0, .tx_packets = 1, .rx_packets = 0};
  const auto earlier = frame(then, {alive});
  // Gone from /proc: the backend's row has no start time and no /proc counters.
  auto gone = process(7, 0, 0);
  gone.exited = true;
  gone.net = NetCounters{.tx_bytes = 3000, .rx_bytes = 0, .tx_packets = 3, .rx_packets = 0};
  auto brief = process(9, 0, 0);  // lived and died between the two frames
  brief.exited = true;
  brief.net = NetCounters{.tx_bytes = 700, .rx_bytes = 70, .tx_packets = 7, .rx_packets = 1};
  const auto later = frame(then + kSecond, {gone, brief});

  const auto rates = process_rates(&earlier, later);
  CHECK(*rates.processes.at(0).net.tx_bytes == Approx(2000.0));
  CHECK_FALSE(rates.processes.at(0).cpu.has_value());  // its CPU counter is not known any more
  CHECK(*rates.processes.at(1).net.tx_bytes == Approx(700.0));
  CHECK(*rates.processes.at(1).net.rx_packets == Approx(1.0));
}

TEST_CASE("process_rates gives unattributed traffic rates where both frames have it",
          "[process_rates]") {
  auto earlier = frame(kBoot, {});
  auto later = frame(kBoot + 4 * kSecond, {});
  later.unattributed =
      NetCounters{.tx_bytes = 800, .rx_bytes = 400, .tx_packets = 8, .rx_packets = 4};
  CHECK_FALSE(process_rates(&earlier, later).unattributed.tx_bytes.has_value());
  earlier.unattributed =
      NetCounters{.tx_bytes = 0, .rx_bytes = 800, .tx_packets = 0, .rx_packets = 0};
  const auto rates = process_rates(&earlier, later);
  CHECK(*rates.unattributed.tx_bytes == Approx(200.0));
  CHECK_FALSE(rates.unattributed.rx_bytes.has_value());  // went backwards
  CHECK(*rates.unattributed.tx_packets == Approx(2.0));
  CHECK(*rates.unattributed.rx_packets == Approx(1.0));
}

TEST_CASE("process_rates without an earlier frame, or without time passing, gives no rates",
          "[process_rates]") {
  auto now = process(7, kBoot + 5 * kSecond, kSecond);
  now.io_read_bytes = 10;
  const auto later = frame(kBoot + 6 * kSecond, {now});
  const auto alone = process_rates(nullptr, later);
  CHECK(alone.seconds == 0);
  REQUIRE(alone.processes.size() == 1);
  CHECK_FALSE(alone.processes[0].cpu.has_value());
  CHECK_FALSE(alone.processes[0].read_bytes.has_value());

  const auto itself = process_rates(&later, later);
  CHECK(itself.seconds == 0);
  CHECK_FALSE(itself.processes.at(0).cpu.has_value());
}
