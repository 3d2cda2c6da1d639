#include "flightrec/trigger/writer.h"

namespace flightrec::trigger {

IncidentWriter::IncidentWriter(IncidentSink& sink, size_t max_queued, IncidentReviser* reviser)
    : sink_(sink), max_queued_(max_queued), reviser_(reviser), thread_([this] { run(); }) {}

IncidentWriter::~IncidentWriter() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  thread_.join();
}

bool IncidentWriter::submit(IncidentCapture incident, store::Snapshot blocks) {
  return enqueue({std::move(incident), std::move(blocks)});
}

bool IncidentWriter::submit_revision(IncidentRevision revision, store::Snapshot ring) {
  return enqueue({std::move(revision), std::move(ring)});
}

bool IncidentWriter::enqueue(Job job) {
  {
    std::lock_guard lock(mutex_);
    if (queue_.size() >= max_queued_) {
      // dropped() counts incidents; a dropped revision is its caller's to count.
      if (std::holds_alternative<IncidentCapture>(job.work)) {
        dropped_.fetch_add(1, std::memory_order_relaxed);
      }
      return false;
    }
    queue_.push_back(std::move(job));
  }
  wake_.notify_one();
  return true;
}

void IncidentWriter::run() {
  std::unique_lock lock(mutex_);
  for (;;) {
    wake_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
    if (queue_.empty()) return;  // stopping, and everything is written
    Job job = std::move(queue_.front());
    queue_.pop_front();
    lock.unlock();
    perform(job);
    lock.lock();
  }
}

void IncidentWriter::perform(Job& job) {
  if (auto* incident = std::get_if<IncidentCapture>(&job.work)) {
    sink_.write(*incident, std::move(job.blocks));
    return;
  }
  const IncidentRevision& revision = std::get<IncidentRevision>(job.work);
  const RevisionOutcome outcome = reviser_ != nullptr
                                      ? reviser_->revise(revision, std::move(job.blocks))
                                      : RevisionOutcome::not_stored;
  if (revision.done) revision.done(outcome);
}

}  // namespace flightrec::trigger
