#pragma once
// The incident state machine on the recorder thread: a rule fires at tick T; the incident waits
// until the frame at T + post has been recorded, then its window [T - pre, T + post] and a ring
// snapshot go to the hand-off (normally IncidentWriter::submit). Several may be pending at once.
// At shutdown, finish_at_shutdown() hands over the pending ones with the post window recorded so
// far, so that an incident already fired (or an alert answered "captured") is not lost.
//
// Hook into Recorder::drain(), once per frame, after signals_.derive(...):
//   capturer.on_frame(header, values_, derived_);
#include <chrono>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "flightrec/model/incident_handoff.h"
#include "flightrec/store/ring.h"
#include "flightrec/trigger/engine.h"

namespace flightrec::trigger {

// The detail an incident cut short by shutdown carries, e.g. "post window cut short by shutdown:
// 1.2s of 5s" (the part of its window after it fired that was recorded, of the part wanted).
inline constexpr std::string_view kCutShortDetail = "capture.cut_short";

// Requests that arrive with their window already chosen (alert notifications: the window is
// centred on when the alert began, trigger/alert_receiver.h), taken on the recorder thread. Each
// source of such requests implements it and is added with IncidentCapturer::add_requests; the
// capturer asks them in the order added (docs/ARCHITECTURE.md, "A trigger source").
class CaptureRequests {
 public:
  virtual ~CaptureRequests() = default;
  // Cheap enough to ask on every frame.
  [[nodiscard]] virtual bool waiting() const noexcept = 0;
  // Moves the waiting requests to `out`: each with its description's fired_at and window set.
  virtual void take(std::vector<model::IncidentCapture>& out) = 0;
  // Just before a request's incident goes to the writer, with the ring as it will be written:
  // a last chance to add what became known while it waited.
  virtual void complete(model::IncidentCapture& capture, const store::Snapshot& snapshot) = 0;
};

struct CaptureOptions {
  std::chrono::nanoseconds rate = std::chrono::milliseconds(1);
  // A rule without `pre` takes the whole buffer (buffer.duration).
  std::chrono::nanoseconds buffer_duration = std::chrono::minutes(10);
  // Manual requests have no rule: they take the whole buffer and this much after.
  std::chrono::nanoseconds manual_post = std::chrono::seconds(5);
};

class IncidentCapturer {
 public:
  using Handoff = std::function<void(model::IncidentCapture, store::Snapshot)>;

  IncidentCapturer(TriggerEngine& engine, const store::Ring& ring, CaptureOptions options,
                   Handoff handoff);

  // Recorder thread, once per frame, after the frame is in the ring and its signals derived.
  // Allocates only when something fires or completes.
  void on_frame(const sampler::FrameHeader& header, std::span<const int64_t> raw,
                std::span<const double> derived);

  [[nodiscard]] size_t pending() const noexcept { return pending_.size(); }

  // Once the recorder thread has stopped for good (the daemon is shutting down): takes the
  // requests still waiting and hands every pending incident over now, its window ending at the
  // last frame recorded; one whose window reached past it says so in kCutShortDetail. Returns
  // how many were cut short.
  size_t finish_at_shutdown();

  // Before the recorder starts: also capture what `requests` asks for (it must outlive this),
  // besides what the sources added before it ask for.
  void add_requests(CaptureRequests& requests) { requests_.push_back(&requests); }

 private:
  struct Pending {
    model::IncidentCapture capture;
    uint64_t complete_at_tick;
    CaptureRequests* requested_by = nullptr;  // null for a rule or manual firing
  };
  void start(const Firing& firing, const sampler::FrameHeader& header);
  void take_requests(CaptureRequests& requests, uint64_t tick, int64_t real_ns);
  void hand_over(Pending& pending, store::Snapshot snapshot);
  // Ticks until `ns` from now have been recorded, rounded up. Ticks, not wall time: the realtime
  // clock may jump, the tick index does not.
  [[nodiscard]] uint64_t ticks_covering(int64_t ns) const;

  TriggerEngine& engine_;
  const store::Ring& ring_;
  CaptureOptions options_;
  Handoff handoff_;
  std::vector<Pending> pending_;
  std::vector<CaptureRequests*> requests_;
  std::vector<model::IncidentCapture> taken_;       // reused: allocates only when requests arrive
  std::optional<sampler::FrameHeader> last_frame_;  // the newest frame on_frame() saw
};

}  // namespace flightrec::trigger
