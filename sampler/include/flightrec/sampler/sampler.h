#pragma once
// The sampler thread's loop: a timerfd armed with absolute deadlines at the configured rate, one
// read of every source per tick, the frame handed to the recorder through a FrameQueue.
// In steady state it never allocates, throws or blocks on anything but its timer (a test counts
// allocations). Late and missed ticks are counted, never caught up by bursts of reads.
#include <chrono>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "flightrec/common/fd.h"
#include "flightrec/common/stop_signal.h"
#include "flightrec/sampler/frame_queue.h"
#include "flightrec/sampler/sampler_stats.h"
#include "flightrec/sampler/series.h"
#include "flightrec/sampler/source.h"

namespace flightrec::sampler {

class Sampler {
 public:
  Sampler(std::vector<std::unique_ptr<Source>> sources, std::chrono::nanoseconds rate);

  [[nodiscard]] const Schema& schema() const noexcept { return schema_; }
  [[nodiscard]] std::chrono::nanoseconds rate() const noexcept { return rate_; }
  [[nodiscard]] SamplerStats& stats() noexcept { return stats_; }
  [[nodiscard]] const SamplerStats& stats() const noexcept { return stats_; }
  [[nodiscard]] const std::vector<std::unique_ptr<Source>>& sources() const noexcept {
    return sources_;
  }

  // Reads every source once into `values` (schema().size() of them), timing each source.
  void sample_once(std::span<int64_t> values) noexcept;

  // Ticks on the calling thread until `stop` is requested (see wake) or, when max_ticks > 0,
  // until that many ticks were sampled. Throws std::system_error if the timer cannot be armed.
  void run(FrameQueue& queue, const StopSignal& stop, uint64_t max_ticks = 0);

  // Any thread, after requesting the stop signal run() was given: makes run() see it now rather
  // than at its next tick. The loop blocks in read() on its timer alone (one syscall a tick, not
  // poll + read), so the request is delivered by firing the timer early; the periodic timer is
  // not restored, so call this only to stop.
  void wake() noexcept;

 private:
  std::vector<std::unique_ptr<Source>> sources_;
  std::vector<size_t> offsets_;  // first value index of each source in a frame
  Schema schema_;
  std::chrono::nanoseconds rate_;
  SamplerStats stats_;
  std::vector<int64_t> values_;  // the frame being filled; sized once
  Fd timer_;
};

}  // namespace flightrec::sampler
