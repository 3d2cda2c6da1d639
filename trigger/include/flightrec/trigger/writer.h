#pragma once
// The incident writer thread: completed incidents queue here (from the recorder thread) and a
// thread of its own hands each to the sink, so slow disks never stall recording. Revisions of
// incidents already written (an alert's end) queue here too, behind the writes they follow. The
// queue is bounded; an incident or revision arriving when it is full is dropped.
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <thread>
#include <variant>

#include "flightrec/trigger/incident.h"

namespace flightrec::trigger {

class IncidentWriter {
 public:
  static constexpr size_t kDefaultMaxQueued = 16;

  // Without a reviser every revision is told not_stored.
  explicit IncidentWriter(IncidentSink& sink, size_t max_queued = kDefaultMaxQueued,
                          IncidentReviser* reviser = nullptr);
  // Writes every queued incident and makes every queued revision, then joins the thread.
  ~IncidentWriter();
  IncidentWriter(const IncidentWriter&) = delete;
  IncidentWriter& operator=(const IncidentWriter&) = delete;

  // Any thread. False (and counted in dropped()) when max_queued jobs are already waiting.
  bool submit(IncidentCapture incident, store::Snapshot blocks);
  // Any thread, the same bound; `ring` is the ring as the revision found it. A dropped revision
  // is neither told nor counted in dropped() (incidents only): the caller has the false.
  bool submit_revision(IncidentRevision revision, store::Snapshot ring);

  [[nodiscard]] uint64_t dropped() const noexcept {
    return dropped_.load(std::memory_order_relaxed);
  }

 private:
  struct Job {
    std::variant<IncidentCapture, IncidentRevision> work;
    store::Snapshot blocks;
  };
  bool enqueue(Job job);
  void run();
  void perform(Job& job);

  IncidentSink& sink_;
  const size_t max_queued_;
  IncidentReviser* reviser_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Job> queue_;
  bool stopping_ = false;
  std::atomic<uint64_t> dropped_{0};
  std::thread thread_;  // last: starts once everything above exists
};

}  // namespace flightrec::trigger
