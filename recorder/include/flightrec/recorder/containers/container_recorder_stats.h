#pragma once
// The container tier's health counters, written by its thread and read by /metrics.
#include <atomic>
#include <cstdint>

namespace flightrec::recorder::containers {

struct ContainerRecorderStats {
  std::atomic<uint64_t> slow_rounds_total{0};
  std::atomic<uint64_t> fast_rounds_total{0};
  std::atomic<uint64_t> slow_reads_total{0};  // containers read in slow rounds
  std::atomic<uint64_t> fast_reads_total{0};  // containers read by the fast tier
  // Slow reads that took every file, not only the counters (containers.detail_rate).
  std::atomic<uint64_t> full_reads_total{0};
  // The thread's CPU time spent reading containers in each tier: with the reads, the cost of one.
  std::atomic<int64_t> slow_read_cpu_ns_total{0};
  std::atomic<int64_t> fast_read_cpu_ns_total{0};
  std::atomic<uint64_t> read_failures_total{0};  // container reads with a file that failed
  std::atomic<uint64_t> discoveries_total{0};
  std::atomic<uint64_t> discovery_failures_total{0};
  std::atomic<int64_t> last_discovery_ns{0};  // the wall time of the last walk
  std::atomic<uint64_t> late_ticks_total{0};  // wake-ups more than a tick after they were due
};

}  // namespace flightrec::recorder::containers
