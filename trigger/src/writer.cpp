#include "flightrec/trigger/writer.h"

#include <algorithm>

#include "flightrec/common/log.h"

namespace flightrec::trigger {

IncidentWriter::IncidentWriter(model::IncidentSink& sink, size_t max_queued,
                               model::IncidentReviser* reviser, size_t max_reserved)
    : sink_(sink),
      max_queued_(max_queued),
      max_reserved_(max_reserved),
      reviser_(reviser),
      thread_([this] { run(); }) {}

IncidentWriter::~IncidentWriter() {
  if (thread_.joinable()) finish(std::chrono::nanoseconds::max());
}

size_t IncidentWriter::finish(std::chrono::nanoseconds budget) {
  const auto now = std::chrono::steady_clock::now();
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    // Saturated: the destructor's unbounded budget must not wrap around to the past.
    give_up_at_ =
        budget >= std::chrono::steady_clock::time_point::max() - now
            ? std::chrono::steady_clock::time_point::max()
            : now + std::chrono::duration_cast<std::chrono::steady_clock::duration>(budget);
  }
  wake_.notify_one();
  thread_.join();
  if (abandoned_ > 0) {
    log::warn("incidents not written: the shutdown's time for writing them ran out",
              {{"count", std::to_string(abandoned_)}});
  }
  return abandoned_;
}

bool IncidentWriter::reserve(std::string_view alert) {
  std::lock_guard lock(mutex_);
  if (reserved_ < max_reserved_) {
    ++reserved_;
    return true;
  }
  refused_warning_.note(alert);
  warned_ = true;
  wake_.notify_one();
  return false;
}

bool IncidentWriter::submit(model::IncidentCapture incident, store::Snapshot blocks) {
  const bool reserved = incident.reserved;
  return enqueue({std::move(incident), std::move(blocks), reserved});
}

bool IncidentWriter::submit_revision(model::IncidentRevision revision, store::Snapshot ring) {
  const bool reserved = revision.reserved;
  return enqueue({std::move(revision), std::move(ring), reserved});
}

bool IncidentWriter::enqueue(Job job) {
  std::lock_guard lock(mutex_);
  if (job.reserved || unreserved_queued_ < max_queued_) {
    if (!job.reserved) ++unreserved_queued_;
    queue_.push_back(std::move(job));
    wake_.notify_one();
    return true;
  }
  // dropped() counts incidents; a dropped revision is its caller's to count and tell.
  if (const auto* incident = std::get_if<model::IncidentCapture>(&job.work)) {
    dropped_.fetch_add(1, std::memory_order_relaxed);
    dropped_warning_.note(incident->description.rule);
    warned_ = true;
    wake_.notify_one();
  }
  return false;
}

std::optional<log::LimitedWarning::Clock::time_point> IncidentWriter::flush_warnings() {
  const auto dropped_due = dropped_warning_.flush();
  const auto refused_due = refused_warning_.flush();
  if (!dropped_due) return refused_due;
  if (!refused_due) return dropped_due;
  return std::min(*dropped_due, *refused_due);
}

void IncidentWriter::run() {
  std::unique_lock lock(mutex_);
  for (;;) {
    // Between jobs, and whenever a warning's count falls due, even with nothing to write.
    // (The warnings have locks of their own, taken under ours elsewhere: flushed without it.)
    warned_ = false;
    lock.unlock();
    const auto warnings_due = flush_warnings();
    lock.lock();
    const auto ready = [&] { return stopping_ || !queue_.empty() || warned_; };
    if (warnings_due) {
      wake_.wait_until(lock, *warnings_due, ready);
    } else {
      wake_.wait(lock, ready);
    }
    if (queue_.empty()) {
      if (stopping_) return;  // everything is written
      continue;               // woken for the warnings
    }
    if (stopping_ && std::chrono::steady_clock::now() >= give_up_at_) {
      abandoned_ = queue_.size();
      std::deque<Job> left;
      left.swap(queue_);
      lock.unlock();
      for (Job& job : left) abandon(job);
      return;
    }
    Job job = std::move(queue_.front());
    queue_.pop_front();
    --(job.reserved ? reserved_ : unreserved_queued_);
    lock.unlock();
    perform(job);
    lock.lock();
  }
}

void IncidentWriter::abandon(Job& job) {
  if (auto* incident = std::get_if<model::IncidentCapture>(&job.work)) {
    if (incident->done) incident->done(model::WriteOutcome::failed);
    return;
  }
  const model::IncidentRevision& revision = std::get<model::IncidentRevision>(job.work);
  if (revision.done) revision.done(model::RevisionOutcome::failed);
}

void IncidentWriter::perform(Job& job) {
  if (auto* incident = std::get_if<model::IncidentCapture>(&job.work)) {
    const model::WriteOutcome outcome = sink_.write(*incident, std::move(job.blocks));
    if (incident->done) incident->done(outcome);
    return;
  }
  const model::IncidentRevision& revision = std::get<model::IncidentRevision>(job.work);
  const model::RevisionOutcome outcome = reviser_ != nullptr
                                             ? reviser_->revise(revision, std::move(job.blocks))
                                             : model::RevisionOutcome::not_stored;
  if (revision.done) revision.done(outcome);
}

}  // namespace flightrec::trigger
