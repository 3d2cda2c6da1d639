#pragma once
// The incident state machine on the recorder thread: a rule fires at tick T; the incident waits
// until the frame at T + post has been recorded, then its window [T - pre, T + post] and a ring
// snapshot go to the hand-off (normally IncidentWriter::submit). Several may be pending at once.
//
// Hook into Recorder::drain(), once per frame, after signals_.derive(...):
//   capturer.on_frame(header, values_, derived_);
#include <chrono>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "flightrec/store/ring.h"
#include "flightrec/trigger/engine.h"
#include "flightrec/trigger/incident.h"

namespace flightrec::trigger {

struct CaptureOptions {
  std::chrono::nanoseconds rate = std::chrono::milliseconds(1);
  // A rule without `pre` takes the whole buffer (buffer.duration).
  std::chrono::nanoseconds buffer_duration = std::chrono::minutes(10);
  // Manual requests have no rule: they take the whole buffer and this much after.
  std::chrono::nanoseconds manual_post = std::chrono::seconds(5);
};

class IncidentCapturer {
 public:
  using Handoff = std::function<void(IncidentCapture, store::Snapshot)>;

  IncidentCapturer(TriggerEngine& engine, const store::Ring& ring, CaptureOptions options,
                   Handoff handoff);

  // Recorder thread, once per frame, after the frame is in the ring and its signals derived.
  // Allocates only when something fires or completes.
  void on_frame(const sampler::FrameHeader& header, std::span<const int64_t> raw,
                std::span<const double> derived);

  [[nodiscard]] size_t pending() const noexcept { return pending_.size(); }

 private:
  struct Pending {
    IncidentCapture capture;
    uint64_t complete_at_tick;
  };
  void start(const Firing& firing, const sampler::FrameHeader& header);

  TriggerEngine& engine_;
  const store::Ring& ring_;
  CaptureOptions options_;
  Handoff handoff_;
  std::vector<Pending> pending_;
};

}  // namespace flightrec::trigger
