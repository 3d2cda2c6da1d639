#include "flightrec/trigger/capturer.h"

#include <algorithm>
#include <charconv>

#include "flightrec/common/log.h"
#include "flightrec/config/trigger_rules.h"
#include "flightrec/config/units.h"
#include "flightrec/trigger/builtin_rules.h"

namespace flightrec::trigger {
namespace {

// "1.2s": to the millisecond, as the config spells durations; never negative.
std::string duration_text(int64_t ns) {
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::nanoseconds(std::max<int64_t>(0, ns)));
  return config::format_duration(ms);
}

}  // namespace

IncidentCapturer::IncidentCapturer(TriggerEngine& engine, const store::Ring& ring,
                                   CaptureOptions options, Handoff handoff)
    : engine_(engine), ring_(ring), options_(options), handoff_(std::move(handoff)) {
  pending_.reserve(engine_.rules().size() + TriggerEngine::kMaxPendingManual);
}

void IncidentCapturer::on_frame(const sampler::FrameHeader& header, std::span<const int64_t> raw,
                                std::span<const double> derived) {
  last_frame_ = header;
  for (const Firing& firing : engine_.evaluate(header, raw, derived)) start(firing, header);
  for (CaptureRequests* requests : requests_) {
    if (requests->waiting()) take_requests(*requests, header.tick, header.real_ns);
  }
  // Complete in firing order; erase only when something completed, so a quiet tick costs a scan.
  bool any_complete = false;
  for (Pending& pending : pending_) {
    if (header.tick < pending.complete_at_tick) continue;
    hand_over(pending, ring_.snapshot());
    any_complete = true;
  }
  if (any_complete) {
    std::erase_if(pending_, [&](const Pending& p) { return header.tick >= p.complete_at_tick; });
  }
}

void IncidentCapturer::hand_over(Pending& pending, store::Snapshot snapshot) {
  if (pending.requested_by != nullptr) pending.requested_by->complete(pending.capture, snapshot);
  handoff_(std::move(pending.capture), std::move(snapshot));
}

size_t IncidentCapturer::finish_at_shutdown() {
  // Before any frame there is nothing recorded: the windows end where they begin.
  const uint64_t tick = last_frame_ ? last_frame_->tick : 0;
  const int64_t last_ns = last_frame_ ? last_frame_->real_ns : 0;
  // Alerts answered "captured" since the last frame, and ends waiting to be handed to the writer.
  for (CaptureRequests* requests : requests_) {
    if (requests->waiting()) take_requests(*requests, tick, last_ns);
  }
  size_t cut = 0;
  const store::Snapshot snapshot = ring_.snapshot();
  for (Pending& pending : pending_) {
    model::IncidentDescription& incident = pending.capture.description;
    const int64_t recorded_to = std::max(incident.window_from_ns, last_ns);
    if (incident.window_to_ns > recorded_to) {
      incident.details.emplace_back(
          kCutShortDetail, "post window cut short by shutdown: " +
                               duration_text(recorded_to - incident.fired_at_ns) + " of " +
                               duration_text(incident.window_to_ns - incident.fired_at_ns));
      incident.window_to_ns = recorded_to;
      ++cut;
    }
    hand_over(pending, snapshot);
  }
  pending_.clear();
  if (cut > 0) {
    log::warn("incidents cut short by shutdown: written with the post window recorded so far",
              {{"count", std::to_string(cut)}, {"detail", std::string(kCutShortDetail)}});
  }
  return cut;
}

void IncidentCapturer::start(const Firing& firing, const sampler::FrameHeader& header) {
  model::IncidentCapture capture{.tick = header.tick};
  model::IncidentDescription& incident = capture.description;
  std::chrono::nanoseconds pre = options_.buffer_duration;
  std::chrono::nanoseconds post = options_.manual_post;
  if (firing.rule == Firing::kManual) {
    incident.kind = model::IncidentKind::manual;
    incident.rule = model::kManualRule;
    incident.reason = std::string(engine_.manual_reason(firing.match));
  } else {
    const config::TriggerRule& rule = engine_.rules()[firing.rule];
    incident.kind = incident_kind_of(rule);
    incident.rule = rule.name;
    incident.condition = config::condition_text(rule);
    incident.series = engine_.series_name(firing.rule, firing.match);
    incident.value = firing.value;
    pre = rule.pre.value_or(options_.buffer_duration);
    post = rule.post;
  }
  // A manual request fired when it was made (its answer named the id that time gives); its frame
  // may come a batch later.
  const int64_t requested_at =
      firing.rule == Firing::kManual ? engine_.manual_requested_at(firing.match) : 0;
  const int64_t fired_at = requested_at != 0 ? requested_at : header.real_ns;
  incident.fired_at_ns = fired_at;
  incident.window_from_ns = fired_at - pre.count();
  incident.window_to_ns = fired_at + post.count();
  // Complete once the frames reach the window's end.
  const int64_t wait_ns = std::max<int64_t>(0, incident.window_to_ns - header.real_ns);
  pending_.push_back(Pending{std::move(capture), header.tick + ticks_covering(wait_ns)});
}

uint64_t IncidentCapturer::ticks_covering(int64_t ns) const {
  const int64_t rate = options_.rate.count();
  return static_cast<uint64_t>((ns + rate - 1) / rate);
}

void IncidentCapturer::take_requests(CaptureRequests& requests, uint64_t tick, int64_t real_ns) {
  requests.take(taken_);
  for (model::IncidentCapture& capture : taken_) {
    // The window's end in ticks from now; a window that has already ended completes at once.
    const int64_t wait_ns = std::max<int64_t>(0, capture.description.window_to_ns - real_ns);
    const uint64_t wait_ticks = ticks_covering(wait_ns);
    capture.tick = tick;
    pending_.push_back(Pending{std::move(capture), tick + wait_ticks, &requests});
  }
  taken_.clear();
}

}  // namespace flightrec::trigger
