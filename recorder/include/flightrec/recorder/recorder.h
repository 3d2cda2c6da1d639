#pragma once
// The recorder thread: drains frames from the sampler's queue into the ring, and derives the key
// signals of each frame into the export window statistics. It is the only writer of both, so the
// sampler never waits on compression and readers never wait on it.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <span>
#include <vector>

#include "flightrec/common/stop_signal.h"
#include "flightrec/model/signals.h"
#include "flightrec/recorder/window_stats.h"
#include "flightrec/sampler/frame_queue.h"
#include "flightrec/store/ring.h"

namespace flightrec::recorder {

class Recorder {
 public:
  Recorder(sampler::FrameQueue& queue, store::Ring& ring, const sampler::Schema& schema,
           std::chrono::nanoseconds rate, std::chrono::nanoseconds export_window);

  // How often run() drains the queue. Each wake-up of an idle CPU costs more than the few frames
  // it moves, so frames are taken in batches: 6 frames at the default 4 ms rate (25 at 1 ms),
  // 40 wake-ups a second instead of 250 (1,000). Readers see frames up to this much later (triggers
  // keep the frames' own timestamps); the daemon's queue holds at least 40 intervals of frames.
  static constexpr std::chrono::milliseconds kDrainInterval{25};

  // Drains every `interval` until `stop` is requested (which wakes it at once), then drains what
  // is left and seals the open block so readers see every recorded frame.
  void run(const StopSignal& stop, std::chrono::milliseconds interval = kDrainInterval);

  // Moves every frame waiting in the queue into the ring; returns how many.
  size_t drain();

  [[nodiscard]] const model::SignalDeriver& signals() const noexcept { return signals_; }
  [[nodiscard]] const WindowStats& window_stats() const noexcept { return window_stats_; }
  // Any thread (a configuration reload): the window aggregates span `window` from now on.
  void set_export_window(std::chrono::nanoseconds window) { window_stats_.set_window(window); }

  // Called on the recorder thread for every frame after it is stored and its signals derived
  // (the trigger engine hangs here; the recorder knows nothing of triggers). Set before run().
  using FrameHook = std::function<void(const sampler::FrameHeader&, std::span<const int64_t> raw,
                                       std::span<const double> derived)>;
  void set_frame_hook(FrameHook hook) { frame_hook_ = std::move(hook); }

  // Any thread: the newest recorded frame; false before the first one.
  bool latest(sampler::FrameHeader& header, std::vector<int64_t>& values) const;

  [[nodiscard]] uint64_t frames_recorded() const noexcept {
    return frames_.load(std::memory_order_relaxed);
  }

 private:
  sampler::FrameQueue& queue_;
  store::Ring& ring_;
  model::SignalDeriver signals_;
  WindowStats window_stats_;
  std::vector<int64_t> values_;
  std::vector<double> derived_;
  FrameHook frame_hook_;
  mutable std::mutex latest_mutex_;
  sampler::FrameHeader latest_header_;
  std::vector<int64_t> latest_values_;
  std::atomic<uint64_t> frames_{0};
};

}  // namespace flightrec::recorder
