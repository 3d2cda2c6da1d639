#include "flightrec/trigger/alert_receiver.h"

#include <algorithm>
#include <ctime>
#include <iterator>
#include <optional>

#include "alert_details.h"
#include "flightrec/common/clock.h"
#include "flightrec/common/log.h"
#include "flightrec/common/time_format.h"
#include "flightrec/common/whole_number.h"
#include "flightrec/trigger/alert_end.h"

namespace flightrec::trigger {
namespace {

using recording::value_of;

// `HighLoad{instance="web-1",severity="critical"}`: the alert as Prometheus would name it.
std::string series_of(const Alert& alert) {
  std::string out(value_of(alert.labels, "alertname"));
  if (out.empty()) out = "alert";
  std::string labels;
  for (const auto& [name, value] : alert.labels) {
    if (name == "alertname") continue;
    if (!labels.empty()) labels += ',';
    labels += name;
    labels += "=\"";
    labels += value;
    labels += '"';
  }
  return labels.empty() ? out : out + "{" + labels + "}";
}

void add_if_set(recording::Labels& details, std::string_view key, const std::string& value) {
  if (!value.empty()) details.emplace_back(key, value);
}

AlertOutcome settled_outcome(model::RevisionOutcome outcome) {
  switch (outcome) {
    case model::RevisionOutcome::revised:
      return AlertOutcome::end_recorded;
    case model::RevisionOutcome::not_stored:
      return AlertOutcome::end_too_late;
    case model::RevisionOutcome::failed:
      return AlertOutcome::end_failed;
  }
  return AlertOutcome::end_failed;
}

// The real time of the oldest frame `snapshot` holds, sealed or not; nullopt when it holds none.
std::optional<int64_t> oldest_frame_ns(const store::Snapshot& snapshot) {
  if (!snapshot.sealed().empty()) return snapshot.stats().first_real_ns;
  // Nothing sealed yet (the first block of a run is still filling): only then the open frames
  // are encoded here, to read their first time; the writer encodes them again for the file.
  const auto open = snapshot.encode_open();
  if (!open) return std::nullopt;
  return open->real_ns(open->first_tick());
}

// Where the part of the incident's wanted window that `snapshot` holds begins; nullopt when it
// holds none of it (the ring is empty, or began after the window ended, e.g. an alert that
// started long before this run). The capture completes only once window.to is recorded, so the
// part held always reaches window.to when it begins within the window.
std::optional<int64_t> held_window_from(const model::IncidentDescription& incident,
                                        const store::Snapshot& snapshot) {
  const std::optional<int64_t> oldest = oldest_frame_ns(snapshot);
  if (!oldest || *oldest > incident.window_to_ns) return std::nullopt;
  return std::max(incident.window_from_ns, *oldest);
}

}  // namespace

std::string episode_key(AlertSource source, std::string_view fingerprint, int64_t starts_at_ns) {
  return std::string(source_name(source)) + "/" + std::string(fingerprint) + "@" +
         std::to_string(starts_at_ns);
}

std::string episode_key(const model::IncidentDescription& incident) {
  if (incident.kind != model::IncidentKind::alert) return {};
  const std::string_view source = value_of(incident.details, alert_details::kSource);
  int64_t starts_at_ns = incident.fired_at_ns;
  // Written by capture_of, so it parses; were it edited into nonsense, fired_at is the best guess.
  const std::string_view sent = value_of(incident.details, alert_details::kSentStartsAtNs);
  if (const auto parsed = whole_number<int64_t>(sent)) starts_at_ns = *parsed;
  return episode_key(source == "grafana" ? AlertSource::grafana : AlertSource::alertmanager,
                     value_of(incident.details, alert_details::kFingerprint), starts_at_ns);
}

AlertReceiverOptions AlertReceiver::options_from(const config::Config& config) {
  AlertReceiverOptions options{.pre = config.incidents.alerts.pre,
                               .post = config.incidents.alerts.post,
                               .max_extension = config.incidents.alerts.max_extension};
  for (const std::string& text : config.incidents.alerts.match) {
    // Variables expand from the daemon's environment, as they did when the loader checked every
    // set; one that fails here would be a loader bug, not user input.
    auto parsed = config::parse_alert_matchers(text);
    if (parsed) options.match.push_back(*std::move(parsed));
  }
  return options;
}

void AlertReceiver::set_options(AlertReceiverOptions options) {
  const std::lock_guard lock(mutex_);
  options.max_episodes = options_.max_episodes;
  options_ = std::move(options);
}

std::vector<AlertOutcome> AlertReceiver::receive(const AlertNotification& notification) {
  std::vector<AlertOutcome> outcomes;
  outcomes.reserve(notification.alerts.size());
  const int64_t received_ns = clock_ns(CLOCK_REALTIME);
  {
    const std::lock_guard lock(mutex_);
    for (const Alert& alert : notification.alerts) {
      outcomes.push_back(closed_ ? AlertOutcome::dropped
                                 : receive_one(notification, alert, received_ns));
    }
    if (!queued_.empty() || !late_ends_.empty()) waiting_.store(true, std::memory_order_release);
  }
  for (AlertOutcome outcome : outcomes) {
    if (outcome != AlertOutcome::end_queued) count(outcome);  // settle() counts those
  }
  // The count of a burst of them, once its interval has passed (senders re-send, so this comes).
  ahead_warning_.flush();
  return outcomes;
}

void AlertReceiver::close() {
  const std::lock_guard lock(mutex_);
  closed_ = true;
}

AlertOutcome AlertReceiver::receive_one(const AlertNotification& notification, const Alert& alert,
                                        int64_t received_ns) {
  if (!config::passes_filter(options_.match, alert.labels)) return AlertOutcome::filtered;
  if (scope_ && scope_(alert.labels) == ContainerScope::elsewhere) {
    return AlertOutcome::out_of_scope;
  }
  const std::string key = episode_key(notification.source, alert.fingerprint, alert.starts_at_ns);
  const auto found = episodes_.find(key);
  if (found != episodes_.end()) {
    Episode& episode = found->second;
    if (alert.firing || episode.ends_at_ns) return AlertOutcome::duplicate;
    if (episode.stage == Stage::written) return end_written(key, episode, alert);
    // Still queued or waiting for its window: complete() writes it into the incident.
    episode.ends_at_ns = alert.ends_at_ns.value_or(0);
    return AlertOutcome::resolved;
  }
  if (stored_ && stored_(key)) {
    // Captured before this start (or before a restart): its file is on disk.
    Episode episode{.stage = Stage::written};
    const AlertOutcome outcome =
        alert.firing ? AlertOutcome::duplicate : end_written(key, episode, alert);
    remember(key, episode);
    return outcome;
  }
  if (!place_for(alert)) return AlertOutcome::dropped;
  // Waiting for a window centred that far ahead would hold the place as long: centred on now.
  const bool ahead =
      alert.starts_at_ns > received_ns + std::chrono::nanoseconds(kMaxStartsAtLead).count();
  if (ahead) ahead_warning_.note(series_of(alert));
  // The first notification of an episode captures it, even a resolved one (flightrec was down
  // or the alert fired and resolved between two notifications).
  queued_.push_back(capture_of(notification, alert, ahead ? received_ns : alert.starts_at_ns));
  queued_.back().reserved = static_cast<bool>(reserve_);
  queued_.back().done = [this, key](model::WriteOutcome outcome) {
    if (outcome == model::WriteOutcome::failed) forget(key);
  };
  remember(key, Episode{.stage = Stage::waiting,
                        .ends_at_ns = alert.firing ? std::nullopt : alert.ends_at_ns});
  return AlertOutcome::captured;
}

AlertOutcome AlertReceiver::end_written(const std::string& key, Episode& episode,
                                        const Alert& alert) {
  if (!revision_handoff_) return AlertOutcome::end_too_late;
  // Its end stays unknown, so that a re-send of it is taken.
  if (!place_for(alert)) return AlertOutcome::dropped;
  // Set now, so that re-sends of the same end are duplicates rather than more rewrites.
  episode.ends_at_ns = alert.ends_at_ns.value_or(0);
  // Handed over by take(), on the recorder thread: after the capture that complete() marked
  // written was submitted to the writer, so the revision always queues behind its write.
  late_ends_.push_back({.key = key,
                        .ends_at_ns = *episode.ends_at_ns,
                        .max_extension = options_.max_extension,
                        .reserved = static_cast<bool>(reserve_)});
  return AlertOutcome::end_queued;
}

bool AlertReceiver::place_for(const Alert& alert) const {
  return !reserve_ || reserve_(series_of(alert));
}

void AlertReceiver::hand_over(const LateEnd& end) {
  model::IncidentRevision revision{
      .matches =
          [key = end.key](const model::IncidentDescription& stored) {
            return episode_key(stored) == key;
          },
      .revise =
          [ends_at_ns = end.ends_at_ns, max_extension = end.max_extension](
              const model::IncidentDescription& stored, const store::RingStats& ring) {
            return ended_incident(stored, ends_at_ns, max_extension, ring);
          },
      .done = [this, key = end.key](model::RevisionOutcome outcome) { settle(key, outcome); },
      .reserved = end.reserved};
  if (!revision_handoff_(std::move(revision))) {
    log::warn("alert end not recorded: the incident writer is behind", {{"episode", end.key}});
    settle(end.key, model::RevisionOutcome::failed);
  }
}

void AlertReceiver::settle(const std::string& key, model::RevisionOutcome outcome) {
  count(settled_outcome(outcome));
  if (outcome != model::RevisionOutcome::failed) return;
  // Not recorded, though it might be on a later try: a re-sent end tries again.
  const std::lock_guard lock(mutex_);
  const auto found = episodes_.find(key);
  if (found != episodes_.end()) found->second.ends_at_ns.reset();
}

void AlertReceiver::forget(const std::string& key) {
  const std::lock_guard lock(mutex_);
  if (episodes_.erase(key) == 0) return;  // forgotten already: max_episodes newer ones since
  // Rare (a failed write) and recent, so the search from the newest end is short.
  const auto newest_first = std::find(episode_order_.rbegin(), episode_order_.rend(), key);
  if (newest_first != episode_order_.rend()) episode_order_.erase(std::next(newest_first).base());
}

void AlertReceiver::remember(const std::string& key, Episode episode) {
  episodes_.emplace(key, episode);
  episode_order_.push_back(key);
  while (episode_order_.size() > options_.max_episodes) {
    episodes_.erase(episode_order_.front());
    episode_order_.pop_front();
  }
}

model::IncidentCapture AlertReceiver::capture_of(const AlertNotification& notification,
                                                 const Alert& alert, int64_t centre_ns) const {
  model::IncidentCapture capture;
  model::IncidentDescription& incident = capture.description;
  incident.kind = model::IncidentKind::alert;
  incident.rule = kAlertRule;
  incident.series = series_of(alert);
  incident.condition = std::string(source_name(notification.source)) + " alert";
  std::string_view summary = value_of(alert.annotations, "summary");
  if (summary.empty()) summary = notification.title;
  incident.reason = summary;
  incident.fired_at_ns = centre_ns;
  incident.window_from_ns = centre_ns - options_.pre.count();
  incident.window_to_ns = centre_ns + options_.post.count();
  // Seen first when already resolved: its end is known, so the window can reach it at once.
  if (!alert.firing && alert.ends_at_ns) {
    incident.window_to_ns =
        extended_window_to(incident.window_to_ns, *alert.ends_at_ns, options_.max_extension);
  }
  recording::Labels& details = incident.details;
  details.emplace_back(alert_details::kSource, source_name(notification.source));
  details.emplace_back(alert_details::kStatus, "firing");
  details.emplace_back(alert_details::kFingerprint, alert.fingerprint);
  details.emplace_back("alert.starts_at", format_rfc3339_ms(alert.starts_at_ns));
  if (centre_ns != alert.starts_at_ns) {
    details.emplace_back(alert_details::kSentStartsAtNs, std::to_string(alert.starts_at_ns));
  }
  add_if_set(details, model::alert_detail_keys::kGeneratorUrl, alert.generator_url);
  add_if_set(details, "alert.receiver", notification.receiver);
  add_if_set(details, "alert.group_key", notification.group_key);
  add_if_set(details, "alert.dashboard_url", alert.dashboard_url);
  add_if_set(details, "alert.panel_url", alert.panel_url);
  add_if_set(details, "alert.silence_url", alert.silence_url);
  add_if_set(details, "alert.value_string", alert.value_string);
  for (const auto& [name, value] : alert.labels) {
    details.emplace_back(std::string(model::alert_detail_keys::kLabelPrefix) + name, value);
  }
  for (const auto& [name, value] : alert.annotations) {
    details.emplace_back(std::string(model::alert_detail_keys::kAnnotationPrefix) + name, value);
  }
  return capture;
}

void AlertReceiver::take(std::vector<model::IncidentCapture>& out) {
  std::vector<LateEnd> late_ends;
  {
    const std::lock_guard lock(mutex_);
    for (model::IncidentCapture& capture : queued_) {
      const auto found = episodes_.find(episode_key(capture.description));
      if (found != episodes_.end()) found->second.stage = Stage::pending;
      out.push_back(std::move(capture));
    }
    queued_.clear();
    late_ends.swap(late_ends_);
    waiting_.store(false, std::memory_order_release);
  }
  for (const LateEnd& end : late_ends) hand_over(end);
}

void AlertReceiver::complete(model::IncidentCapture& capture, const store::Snapshot& snapshot) {
  model::IncidentDescription& incident = capture.description;
  const std::optional<int64_t> held_from = held_window_from(incident, snapshot);
  alert_details::set(
      incident.details, alert_details::kHeldFrom,
      held_from ? format_rfc3339_ms(*held_from) : std::string(alert_details::kNothingHeld));
  const std::lock_guard lock(mutex_);
  const auto found = episodes_.find(episode_key(incident));
  if (found == episodes_.end()) return;  // forgotten: more episodes than max_episodes since
  found->second.stage = Stage::written;
  if (!found->second.ends_at_ns) return;
  alert_details::set(incident.details, alert_details::kStatus, "resolved");
  alert_details::set(incident.details, alert_details::kEndsAt,
                     format_rfc3339_ms(*found->second.ends_at_ns));
}

size_t AlertReceiver::episodes() const {
  const std::lock_guard lock(mutex_);
  return episodes_.size();
}

}  // namespace flightrec::trigger
