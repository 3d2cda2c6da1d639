#pragma once
// The incident writer thread: completed incidents queue here (from the recorder thread) and a
// thread of its own hands each to the sink, so slow disks never stall recording. The queue is
// bounded; an incident arriving when it is full is dropped and counted.
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <thread>
#include <utility>

#include "flightrec/trigger/incident.h"

namespace flightrec::trigger {

class IncidentWriter {
 public:
  explicit IncidentWriter(IncidentSink& sink, size_t max_queued = 16);
  // Writes every queued incident, then joins the thread.
  ~IncidentWriter();
  IncidentWriter(const IncidentWriter&) = delete;
  IncidentWriter& operator=(const IncidentWriter&) = delete;

  // Any thread. False (and counted in dropped()) when max_queued incidents are already waiting.
  bool submit(IncidentCapture incident, store::Snapshot blocks);

  [[nodiscard]] uint64_t dropped() const noexcept {
    return dropped_.load(std::memory_order_relaxed);
  }

 private:
  void run();

  IncidentSink& sink_;
  const size_t max_queued_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::pair<IncidentCapture, store::Snapshot>> queue_;
  bool stopping_ = false;
  std::atomic<uint64_t> dropped_{0};
  std::thread thread_;  // last: starts once everything above exists
};

}  // namespace flightrec::trigger
