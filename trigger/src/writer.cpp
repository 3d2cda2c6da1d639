#include "flightrec/trigger/writer.h"

namespace flightrec::trigger {

IncidentWriter::IncidentWriter(IncidentSink& sink, size_t max_queued)
    : sink_(sink), max_queued_(max_queued), thread_([this] { run(); }) {}

IncidentWriter::~IncidentWriter() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  thread_.join();
}

bool IncidentWriter::submit(IncidentCapture incident, store::Snapshot blocks) {
  {
    std::lock_guard lock(mutex_);
    if (queue_.size() >= max_queued_) {
      dropped_.fetch_add(1, std::memory_order_relaxed);
      return false;
    }
    queue_.emplace_back(std::move(incident), std::move(blocks));
  }
  wake_.notify_one();
  return true;
}

void IncidentWriter::run() {
  std::unique_lock lock(mutex_);
  for (;;) {
    wake_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
    if (queue_.empty()) return;  // stopping, and everything is written
    auto [incident, blocks] = std::move(queue_.front());
    queue_.pop_front();
    lock.unlock();
    sink_.write(incident, std::move(blocks));
    lock.lock();
  }
}

}  // namespace flightrec::trigger
