#pragma once
// Giving memory back to the kernel after the processes fell. glibc returns to the kernel only
// free space beyond a threshold at the top of each heap; the rest of what a burst of processes
// made the daemon allocate (the frames and their copies, the /metrics window's rows per process,
// the ring's blocks, the scrapes that ranked them) stayed resident after those processes had
// exited and every holder had let them go: RSS went 25 -> 156 MB with 5,000 processes and was
// still 172 MB eleven minutes later. Two parts: fixed allocator thresholds
// (bound_heap_retention) and malloc_trim(0), which hands back the free pages inside every arena
// but walks the heap to do it (1-11 ms after 5,000 processes here), so HeapTrim says when: after
// a fall (the processes of a frame down to half their peak, by at least kMinRows), and once more
// as each holder lets the fallen processes go (the /metrics window, the ring's span: `holds`),
// never twice within kMinInterval.
#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace flightrec::recorder {

// The allocator settings the trims rely on; the daemon sets them before it starts any thread.
// By default glibc raises its trim and mmap thresholds as large blocks are freed (up to 64 and
// 32 MiB), and each thread arena then keeps that much free at its top, which malloc_trim does not
// reach in a thread's arena: after a burst with /metrics scraped meanwhile, a dozen civetweb
// workers' arenas kept ~6 MiB each. Fixed thresholds (trim beyond 1 MiB free at the top; blocks
// of 4 MiB and up mapped on their own, so a frame of a few thousand processes stays in its arena
// and costs no page faults each tick) and at most 4 arenas bound what stays.
void bound_heap_retention();

class HeapTrim {
 public:
  using Clock = std::chrono::steady_clock;

  // How long after a fall something may still hold the processes that fell, and what.
  struct Hold {
    Clock::duration after;
    std::string what;  // "the /metrics window", "the process ring": for the log
  };

  // A smaller fall gives back too little to be worth a walk of the heap.
  static constexpr uint64_t kMinRows = 1000;
  static constexpr std::chrono::seconds kMinInterval{10};

  explicit HeapTrim(std::vector<Hold> holds) : holds_(std::move(holds)) {}

  // After each tick, with the rows (processes and sockets) of its frame. Why a trim is due now
  // ("the processes fell", or the hold that let them go), counted as done; "" when none is.
  std::string_view due(uint64_t rows, Clock::time_point at);

 private:
  struct Pending {
    Clock::time_point at;
    std::string_view why;
  };

  std::vector<Hold> holds_;
  uint64_t peak_rows_ = 0;        // the most since the last fall
  std::vector<Pending> pending_;  // the trims the last fall still asks for, soonest first
  Clock::time_point last_trim_{};
  bool trimmed_ = false;
};

}  // namespace flightrec::recorder
