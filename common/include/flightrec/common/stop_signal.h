#pragma once
// A one-shot "please stop" that threads can both poll and wait on: an eventfd, so a thread blocked
// in poll() on its timer wakes at once instead of at its next tick (shutdown within 1 s even when
// a tick is 10 s long).
#include <atomic>

#include "flightrec/common/fd.h"

namespace flightrec {

class StopSignal {
 public:
  StopSignal();  // throws std::system_error when no eventfd can be had

  void request() noexcept;  // async-signal-safe
  [[nodiscard]] bool requested() const noexcept {
    return requested_.load(std::memory_order_acquire);
  }
  // Readable once request() was called; never drained, so every waiter sees it.
  [[nodiscard]] int fd() const noexcept { return fd_.get(); }

 private:
  Fd fd_;
  std::atomic<bool> requested_{false};
};

}  // namespace flightrec
