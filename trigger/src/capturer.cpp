#include "flightrec/trigger/capturer.h"

#include <algorithm>
#include <charconv>

#include "flightrec/common/number_format.h"
#include "flightrec/config/trigger_rules.h"
#include "flightrec/trigger/builtin_rules.h"

namespace flightrec::trigger {
IncidentCapturer::IncidentCapturer(TriggerEngine& engine, const store::Ring& ring,
                                   CaptureOptions options, Handoff handoff)
    : engine_(engine), ring_(ring), options_(options), handoff_(std::move(handoff)) {
  pending_.reserve(engine_.rules().size() + TriggerEngine::kMaxPendingManual);
}

void IncidentCapturer::on_frame(const sampler::FrameHeader& header, std::span<const int64_t> raw,
                                std::span<const double> derived) {
  for (const Firing& firing : engine_.evaluate(header, raw, derived)) start(firing, header);
  for (CaptureRequests* requests : requests_) {
    if (requests->waiting()) take_requests(*requests, header);
  }
  // Complete in firing order; erase only when something completed, so a quiet tick costs a scan.
  bool any_complete = false;
  for (Pending& pending : pending_) {
    if (header.tick < pending.complete_at_tick) continue;
    store::Snapshot snapshot = ring_.snapshot();
    if (pending.requested_by != nullptr) pending.requested_by->complete(pending.capture, snapshot);
    handoff_(std::move(pending.capture), std::move(snapshot));
    any_complete = true;
  }
  if (any_complete) {
    std::erase_if(pending_, [&](const Pending& p) { return header.tick >= p.complete_at_tick; });
  }
}

void IncidentCapturer::start(const Firing& firing, const sampler::FrameHeader& header) {
  IncidentCapture capture{.tick = header.tick};
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
    incident.condition = rule.signal + " " + std::string(config::comparison_text(rule.op)) + " " +
                         number_text(rule.value);
    incident.series = engine_.series_name(firing.rule, firing.match);
    incident.value = firing.value;
    pre = rule.pre.value_or(options_.buffer_duration);
    post = rule.post;
  }
  incident.fired_at_ns = header.real_ns;
  incident.window_from_ns = header.real_ns - pre.count();
  incident.window_to_ns = header.real_ns + post.count();
  pending_.push_back(Pending{std::move(capture), header.tick + ticks_covering(post.count())});
}

uint64_t IncidentCapturer::ticks_covering(int64_t ns) const {
  const int64_t rate = options_.rate.count();
  return static_cast<uint64_t>((ns + rate - 1) / rate);
}

void IncidentCapturer::take_requests(CaptureRequests& requests,
                                     const sampler::FrameHeader& header) {
  requests.take(taken_);
  for (IncidentCapture& capture : taken_) {
    // The window's end in ticks from now; a window that has already ended completes at once.
    const int64_t wait_ns = std::max<int64_t>(0, capture.description.window_to_ns - header.real_ns);
    const uint64_t wait_ticks = ticks_covering(wait_ns);
    capture.tick = header.tick;
    pending_.push_back(Pending{std::move(capture), header.tick + wait_ticks, &requests});
  }
  taken_.clear();
}

}  // namespace flightrec::trigger
