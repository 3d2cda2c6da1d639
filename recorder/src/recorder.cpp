#include "flightrec/recorder/recorder.h"

#include <poll.h>

namespace flightrec::recorder {

Recorder::Recorder(sampler::FrameQueue& queue, store::Ring& ring)
    : queue_(queue), ring_(ring), values_(queue.values_per_frame()) {}

size_t Recorder::drain() {
  size_t n = 0;
  sampler::FrameHeader header;
  while (queue_.pop(header, values_)) {
    ring_.append(header, values_);
    ++n;
  }
  frames_.fetch_add(n, std::memory_order_relaxed);
  return n;
}

void Recorder::run(const StopSignal& stop, std::chrono::milliseconds poll_interval) {
  pollfd stop_fd{stop.fd(), POLLIN, 0};
  while (!stop.requested()) {
    if (drain() == 0) {
      // Sleeping on the stop eventfd rather than a plain sleep: a stop request wakes us at once.
      ::poll(&stop_fd, 1, static_cast<int>(poll_interval.count()));
    }
  }
  drain();
  ring_.seal();
}

}  // namespace flightrec::recorder
