#include "flightrec/recorder/recorder.h"

#include <poll.h>

namespace flightrec::recorder {

namespace {
std::vector<bool> histogram_flags(const model::SignalDeriver& deriver) {
  std::vector<bool> flags;
  for (const auto& signal : deriver.signals()) flags.push_back(signal.histogram);
  return flags;
}
}  // namespace

Recorder::Recorder(sampler::FrameQueue& queue, store::Ring& ring, const sampler::Schema& schema,
                   std::chrono::nanoseconds rate, std::chrono::nanoseconds export_window)
    : queue_(queue),
      ring_(ring),
      signals_(schema, rate),
      window_stats_(histogram_flags(signals_), export_window),
      values_(queue.values_per_frame()),
      derived_(signals_.signals().size()) {}

size_t Recorder::drain() {
  size_t n = 0;
  sampler::FrameHeader header;
  while (queue_.pop(header, values_)) {
    ring_.append(header, values_);
    signals_.derive(header, values_, derived_);
    window_stats_.observe(header.mono_ns, derived_);
    if (frame_hook_) frame_hook_(header, values_, derived_);
    ++n;
  }
  if (n > 0) {
    // Once per batch, not per frame: readers want the newest frame, not every one.
    std::lock_guard lock(latest_mutex_);
    latest_header_ = header;
    latest_values_ = values_;
  }
  frames_.fetch_add(n, std::memory_order_relaxed);
  return n;
}

bool Recorder::latest(sampler::FrameHeader& header, std::vector<int64_t>& values) const {
  std::lock_guard lock(latest_mutex_);
  if (latest_values_.empty()) return false;
  header = latest_header_;
  values = latest_values_;
  return true;
}

void Recorder::run(const StopSignal& stop, std::chrono::milliseconds interval) {
  pollfd stop_fd{stop.fd(), POLLIN, 0};
  while (!stop.requested()) {
    drain();
    // A full interval whatever the drain found, so frames gather into batches. Sleeping on the
    // stop eventfd rather than a plain sleep: a stop request wakes us at once.
    ::poll(&stop_fd, 1, static_cast<int>(interval.count()));
  }
  drain();
  ring_.seal();
}

}  // namespace flightrec::recorder
