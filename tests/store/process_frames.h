#pragma once
// Synthetic process-tier frames shaped like a busy machine's: a table of processes with realistic
// strings, of which a few change each tick (CPU, memory, faults, traffic), some exit and some
// start; a socket table whose busy connections move. Shared by the store and recording tests, the
// process block fuzzer's seeds and bench/process_block_bytes.cpp.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "flightrec/process/process_frame.h"

namespace flightrec::store::testing {

using process::NetCounters;
using process::ProcessFrame;
using process::ProcessRow;
using process::SocketProtocol;
using process::SocketRow;

inline constexpr int64_t kProcessStartNs = 1'700'000'000'000'000'000;
inline constexpr int64_t kProcessTickNs = 250'000'000;

struct ProcessFrameOptions {
  size_t processes = 200;
  size_t frames = 16;
  size_t changes_per_frame = 10;  // processes whose counters move each tick
  size_t sockets = 40;
  uint64_t seed = 1;
};

class ProcessFrameGenerator {
 public:
  explicit ProcessFrameGenerator(const ProcessFrameOptions& options)
      : options_(options), rng_(options.seed) {
    frame_.time_unix_ns = kProcessStartNs;
    for (size_t i = 0; i < options.processes; ++i) frame_.processes.push_back(new_process());
    for (size_t i = 0; i < options.sockets; ++i) frame_.sockets.push_back(new_socket(i));
    frame_.unattributed = NetCounters{.tx_bytes = 1000, .rx_bytes = 2000};
  }

  // The next frame (the first call returns the initial table).
  ProcessFrame next() {
    if (started_) advance();
    started_ = true;
    return frame_;
  }

  std::vector<ProcessFrame> frames(size_t count) {
    std::vector<ProcessFrame> out;
    for (size_t i = 0; i < count; ++i) out.push_back(next());
    return out;
  }

 private:
  uint64_t below(uint64_t n) { return n == 0 ? 0 : rng_() % n; }

  ProcessRow new_process() {
    next_pid_ += static_cast<int32_t>(1 + below(5));
    const auto id = std::to_string(next_pid_);
    const bool kernel = below(10) == 0;
    ProcessRow row{.pid = next_pid_,
                   .ppid = kernel ? 2 : static_cast<int32_t>(1 + below(1000)),
                   .pgrp = next_pid_,
                   .session = next_pid_,
                   .uid = static_cast<uint32_t>(below(3) == 0 ? 0 : 1000),
                   .state = below(4) == 0 ? 'R' : 'S',
                   .kernel_thread = kernel,
                   .comm = kernel ? "kworker/" + std::to_string(below(4)) : "worker-" + id,
                   .start_time_unix_ns =
                       kProcessStartNs - static_cast<int64_t>(below(1'000'000)) * 1'000'000'000,
                   .cpu_user_ns = below(1'000'000) * 10'000'000,
                   .cpu_system_ns = below(100'000) * 10'000'000,
                   .threads = static_cast<uint32_t>(1 + below(8)),
                   .minor_faults = below(100'000),
                   .major_faults = below(100)};
    if (!kernel) {
      row.cmdline = "/usr/bin/worker --id=" + id + " --config=/etc/worker/worker.yaml";
      row.cgroup = "/system.slice/worker@" + id + ".service";
      if (below(10) == 0) {
        row.container_id = std::string(64, "0123456789abcdef"[below(16)]);
        row.cgroup = "/system.slice/docker-" + row.container_id + ".scope";
      }
      row.rss_bytes = (1 + below(100'000)) * 4096;
      row.vsz_bytes = row.rss_bytes * 4;
      row.io_read_bytes = below(1'000'000'000);
      row.io_write_bytes = below(1'000'000);
      if (below(3) == 0) {
        row.net = NetCounters{below(1'000'000), below(1'000'000), below(1000), below(1000)};
        row.net_device = "eth0";
      }
    }
    return row;
  }

  SocketRow new_socket(size_t index) {
    const bool listening = index % 5 == 0;
    const bool udp = index % 7 == 0;
    return {.protocol = udp ? SocketProtocol::udp : SocketProtocol::tcp,
            .family = 2,
            .state = static_cast<uint8_t>(listening ? 10 : 1),
            .listening = listening,
            .local = "10.0.0.1:" + std::to_string(1024 + index),
            .remote = listening ? "" : "10.0.0." + std::to_string(2 + below(200)) + ":443",
            .inode = 100'000 + index,
            .pid = static_cast<int32_t>(1 + below(1000)),
            .uid = 1000,
            .tx_bytes = udp ? std::nullopt : std::optional<uint64_t>(below(1'000'000)),
            .rx_bytes = udp ? std::nullopt : std::optional<uint64_t>(below(1'000'000))};
  }

  void advance() {
    frame_.time_unix_ns += kProcessTickNs + static_cast<int64_t>(below(2'000'000));
    auto& rows = frame_.processes;
    // Rows marked exited on the last tick go; about one process in 500 exits, as many start.
    std::erase_if(rows, [](const ProcessRow& row) { return row.exited; });
    for (size_t i = 0; i < 1 + options_.processes / 500 && !rows.empty(); ++i) {
      auto& row = rows[below(rows.size())];
      row.exited = true;
      row.state = 'x';
    }
    while (rows.size() < options_.processes + 1 + options_.processes / 500) {
      rows.push_back(new_process());
    }
    for (size_t i = 0; i < options_.changes_per_frame && !rows.empty(); ++i) {
      auto& row = rows[below(rows.size())];
      row.cpu_user_ns += below(25) * 10'000'000;
      row.cpu_system_ns += below(5) * 10'000'000;
      row.minor_faults += below(200);
      if (below(2) == 0) row.rss_bytes += below(64) * 4096;
      if (row.io_read_bytes && below(4) == 0) *row.io_read_bytes += below(65536);
      if (row.net) {
        row.net->tx_bytes += below(100'000);
        row.net->tx_packets += below(100);
      }
      if (below(20) == 0) row.state = row.state == 'R' ? 'S' : 'R';
    }
    for (auto& socket : frame_.sockets) {
      if (socket.tx_bytes && below(4) == 0) *socket.tx_bytes += below(100'000);
      if (socket.rx_bytes && below(4) == 0) *socket.rx_bytes += below(100'000);
    }
    frame_.unattributed->tx_bytes += below(1000);
    frame_.processes_dropped = below(10) == 0 ? 1 : 0;
  }

  ProcessFrameOptions options_;
  std::mt19937_64 rng_;
  ProcessFrame frame_;
  int32_t next_pid_ = 0;
  bool started_ = false;
};

inline std::vector<ProcessFrame> synthetic_process_frames(const ProcessFrameOptions& options) {
  return ProcessFrameGenerator(options).frames(options.frames);
}

}  // namespace flightrec::store::testing
