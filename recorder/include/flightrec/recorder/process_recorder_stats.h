#pragma once
// The process tier's health counters, written by its thread and read by /metrics.
#include <atomic>
#include <cstdint>

namespace flightrec::recorder {

struct ProcessRecorderStats {
  std::atomic<uint64_t> samples{0};
  std::atomic<int64_t> last_duration_ns{0};  // the whole tick: /proc, traffic and sockets
  std::atomic<uint32_t> processes{0};
  std::atomic<uint64_t> dropped_total{0};   // rows beyond processes.max_count
  std::atomic<uint64_t> vanished_total{0};  // processes that exited while being read
  std::atomic<uint64_t> read_errors_total{0};
  std::atomic<uint64_t> traffic_failures_total{0};
  std::atomic<uint64_t> socket_reads_total{0};  // dumps of the socket tables (sockets_rate)
  std::atomic<uint64_t> socket_failures_total{0};
  std::atomic<uint64_t> short_lived_total{0};     // processes seen only through their exit report
  std::atomic<uint64_t> exits_lost_total{0};      // exit reports the kernel's buffer dropped
  std::atomic<uint64_t> frames_refused_total{0};  // frames the process ring could not store
  std::atomic<uint64_t> late_ticks_total{0};      // ticks that took longer than the period
};

}  // namespace flightrec::recorder
