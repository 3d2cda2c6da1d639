#pragma once
// The incident writer thread: completed incidents queue here (from the recorder thread) and a
// thread of its own hands each to the sink, so slow disks never stall recording. Revisions of
// incidents already written (an alert's end) queue here too, behind the writes they follow.
//
// The queue holds at most max_queued jobs as they come (rule and manual incidents): one arriving
// when it is full is dropped, counted, and logged (rate-limited, naming its rule). An alert's
// capture or end is accepted by the webhook long before its job exists (the window ends up to
// incidents.alerts.post later), so the webhook reserves its place first: a reserved job is never
// refused, and the webhook answers "captured" only for alerts that got a place.
//
// At shutdown finish() writes what is queued within a time budget, so a stop is bounded however
// many incidents wait; what is left then is logged and told failed.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <string_view>
#include <thread>
#include <variant>

#include "flightrec/common/limited_warning.h"
#include "flightrec/model/incident_handoff.h"

namespace flightrec::trigger {

class IncidentWriter {
 public:
  static constexpr size_t kDefaultMaxQueued = 16;
  static constexpr size_t kDefaultMaxReserved = 256;

  // Without a reviser every revision is told not_stored.
  explicit IncidentWriter(model::IncidentSink& sink, size_t max_queued = kDefaultMaxQueued,
                          model::IncidentReviser* reviser = nullptr,
                          size_t max_reserved = kDefaultMaxReserved);
  // Writes every queued incident and makes every queued revision, then joins the thread (unless
  // finish() has).
  ~IncidentWriter();
  IncidentWriter(const IncidentWriter&) = delete;
  IncidentWriter& operator=(const IncidentWriter&) = delete;

  // Any thread: holds a place for a job submitted later with `reserved` set, outside max_queued.
  // False when max_reserved places are held: then the alert (`alert`, as the log names it) is
  // not captured, logged rate-limited. A place is free again once its job has left the queue.
  bool reserve(std::string_view alert);

  // Any thread. False (counted in dropped() and logged) when the incident is not reserved and
  // max_queued such jobs are already waiting; a reserved one is always taken. A taken incident's
  // `done` is told whether it was written, on the writer thread.
  bool submit(model::IncidentCapture incident, store::Snapshot blocks);
  // Any thread, the same bounds; `ring` is the ring as the revision found it. A dropped revision
  // is neither told nor counted in dropped() (incidents only): the caller has the false.
  bool submit_revision(model::IncidentRevision revision, store::Snapshot ring);

  // Once, after the last submit: writes and revises what is queued until `budget` has passed,
  // then joins the thread. A job started by then is finished (the budget can be overrun by one
  // write); the jobs left are not done: logged with their count, told failed, and counted in
  // the return value.
  size_t finish(std::chrono::nanoseconds budget);

  [[nodiscard]] uint64_t dropped() const noexcept {
    return dropped_.load(std::memory_order_relaxed);
  }

 private:
  struct Job {
    std::variant<model::IncidentCapture, model::IncidentRevision> work;
    store::Snapshot blocks;
    bool reserved = false;
  };
  bool enqueue(Job job);
  void run();
  void perform(Job& job);
  // Tells a job it will not be done.
  static void abandon(Job& job);
  // Writes the warnings' counts that are due; returns when the next one will be.
  std::optional<log::LimitedWarning::Clock::time_point> flush_warnings();

  model::IncidentSink& sink_;
  const size_t max_queued_;
  const size_t max_reserved_;
  model::IncidentReviser* reviser_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Job> queue_;
  size_t unreserved_queued_ = 0;  // jobs in queue_ without a place held
  size_t reserved_ = 0;           // places held by jobs to come or still in queue_
  bool stopping_ = false;
  // After it, a stopping thread leaves what is still queued (finish()).
  std::chrono::steady_clock::time_point give_up_at_ = std::chrono::steady_clock::time_point::max();
  size_t abandoned_ = 0;  // by the stopping thread
  bool warned_ = false;   // a warning counted an event since the thread last flushed them
  std::atomic<uint64_t> dropped_{0};
  // Noted with mutex_ held, flushed by the thread without it.
  log::LimitedWarning dropped_warning_{"incident dropped: the writer is behind"};
  log::LimitedWarning refused_warning_{
      "alert not captured: too many alert incidents are waiting to be written; answered 503 for "
      "the sender to send it again"};
  std::thread thread_;  // last: starts once everything above exists
};

}  // namespace flightrec::trigger
