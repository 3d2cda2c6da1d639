#include "flightrec/trigger/alert_receiver.h"

#include <algorithm>

#include "flightrec/snapshot/time_format.h"

namespace flightrec::trigger {
namespace {

constexpr std::string_view kSourceKey = "alert.source";
constexpr std::string_view kFingerprintKey = "alert.fingerprint";
constexpr std::string_view kStatusKey = "alert.status";
constexpr std::string_view kEndsAtKey = "alert.ends_at";
constexpr std::string_view kHeldFromKey = "alert.window_held_from";

std::string_view value_of(const config::AlertLabels& labels, std::string_view name) {
  auto found = std::find_if(labels.begin(), labels.end(),
                            [name](const auto& label) { return label.first == name; });
  return found == labels.end() ? std::string_view{} : std::string_view(found->second);
}

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

void set_detail(recording::Labels& details, std::string_view key, std::string value) {
  auto found = std::find_if(details.begin(), details.end(),
                            [key](const auto& detail) { return detail.first == key; });
  if (found != details.end()) {
    found->second = std::move(value);
  } else {
    details.emplace_back(key, std::move(value));
  }
}

}  // namespace

std::string_view outcome_name(AlertOutcome outcome) {
  switch (outcome) {
    case AlertOutcome::captured:
      return "captured";
    case AlertOutcome::duplicate:
      return "duplicate";
    case AlertOutcome::resolved:
      return "resolved";
    case AlertOutcome::end_too_late:
      return "end_too_late";
    case AlertOutcome::filtered:
      return "filtered";
    case AlertOutcome::dropped:
      return "dropped";
  }
  return "?";
}

std::string_view result_name(NotificationResult result) {
  switch (result) {
    case NotificationResult::accepted:
      return "accepted";
    case NotificationResult::bad_request:
      return "bad_request";
    case NotificationResult::too_large:
      return "too_large";
  }
  return "?";
}

std::string episode_key(AlertSource source, std::string_view fingerprint, int64_t starts_at_ns) {
  return std::string(source_name(source)) + "/" + std::string(fingerprint) + "@" +
         std::to_string(starts_at_ns);
}

std::string episode_key(const model::IncidentDescription& incident) {
  if (incident.rule != kAlertRule) return {};
  const std::string_view source = value_of(incident.details, kSourceKey);
  return episode_key(source == "grafana" ? AlertSource::grafana : AlertSource::alertmanager,
                     value_of(incident.details, kFingerprintKey), incident.fired_at_ns);
}

AlertReceiverOptions AlertReceiver::options_from(const config::Config& config) {
  AlertReceiverOptions options{.pre = config.incidents.alerts.pre,
                               .post = config.incidents.alerts.post};
  for (const std::string& text : config.incidents.alerts.match) {
    auto parsed = config::parse_alert_matchers(text);
    // The loader checked every set; one that fails here would be a loader bug, not user input.
    if (auto* set = std::get_if<config::AlertMatcherSet>(&parsed)) {
      options.match.push_back(std::move(*set));
    }
  }
  return options;
}

std::vector<AlertOutcome> AlertReceiver::receive(const AlertNotification& notification) {
  std::vector<AlertOutcome> outcomes;
  outcomes.reserve(notification.alerts.size());
  {
    const std::lock_guard lock(mutex_);
    for (const Alert& alert : notification.alerts) {
      outcomes.push_back(receive_one(notification, alert));
    }
    if (!queued_.empty()) waiting_.store(true, std::memory_order_release);
  }
  for (AlertOutcome outcome : outcomes) {
    outcome_counts_.at(static_cast<size_t>(outcome)).fetch_add(1, std::memory_order_relaxed);
  }
  return outcomes;
}

AlertOutcome AlertReceiver::receive_one(const AlertNotification& notification, const Alert& alert) {
  if (!config::passes_filter(options_.match, alert.labels)) return AlertOutcome::filtered;
  const std::string key = episode_key(notification.source, alert.fingerprint, alert.starts_at_ns);
  const auto found = episodes_.find(key);
  if (found != episodes_.end()) {
    Episode& episode = found->second;
    if (alert.firing || episode.ends_at_ns) return AlertOutcome::duplicate;
    if (episode.stage == Stage::written) return AlertOutcome::end_too_late;
    // Still queued or waiting for its window: complete() writes it into the incident.
    episode.ends_at_ns = alert.ends_at_ns.value_or(0);
    return AlertOutcome::resolved;
  }
  if (stored_ && stored_(key)) {
    // Captured before this start: its file cannot take the end either.
    remember(key, Episode{.stage = Stage::written});
    return alert.firing ? AlertOutcome::duplicate : AlertOutcome::end_too_late;
  }
  if (queued_.size() >= kMaxWaiting) return AlertOutcome::dropped;
  // The first notification of an episode captures it, even a resolved one (flightrec was down
  // or the alert fired and resolved between two notifications).
  queued_.push_back(capture_of(notification, alert));
  remember(key, Episode{.stage = Stage::waiting,
                        .ends_at_ns = alert.firing ? std::nullopt : alert.ends_at_ns});
  return AlertOutcome::captured;
}

void AlertReceiver::remember(const std::string& key, Episode episode) {
  episodes_.emplace(key, episode);
  episode_order_.push_back(key);
  while (episode_order_.size() > options_.max_episodes) {
    episodes_.erase(episode_order_.front());
    episode_order_.pop_front();
  }
}

IncidentCapture AlertReceiver::capture_of(const AlertNotification& notification,
                                          const Alert& alert) const {
  IncidentCapture capture;
  model::IncidentDescription& incident = capture.description;
  incident.rule = kAlertRule;
  incident.series = series_of(alert);
  incident.condition = std::string(source_name(notification.source)) + " alert";
  std::string_view summary = value_of(alert.annotations, "summary");
  if (summary.empty()) summary = notification.title;
  incident.reason = summary;
  incident.fired_at_ns = alert.starts_at_ns;
  incident.window_from_ns = alert.starts_at_ns - options_.pre.count();
  incident.window_to_ns = alert.starts_at_ns + options_.post.count();
  recording::Labels& details = incident.details;
  details.emplace_back(kSourceKey, source_name(notification.source));
  details.emplace_back(kStatusKey, "firing");
  details.emplace_back(kFingerprintKey, alert.fingerprint);
  details.emplace_back("alert.starts_at", snapshot::format_rfc3339_ms(alert.starts_at_ns));
  add_if_set(details, "alert.generator_url", alert.generator_url);
  add_if_set(details, "alert.receiver", notification.receiver);
  add_if_set(details, "alert.group_key", notification.group_key);
  add_if_set(details, "alert.dashboard_url", alert.dashboard_url);
  add_if_set(details, "alert.panel_url", alert.panel_url);
  add_if_set(details, "alert.silence_url", alert.silence_url);
  add_if_set(details, "alert.value_string", alert.value_string);
  for (const auto& [name, value] : alert.labels) details.emplace_back("alert.label." + name, value);
  for (const auto& [name, value] : alert.annotations) {
    details.emplace_back("alert.annotation." + name, value);
  }
  return capture;
}

void AlertReceiver::take(std::vector<IncidentCapture>& out) {
  const std::lock_guard lock(mutex_);
  for (IncidentCapture& capture : queued_) {
    const auto found = episodes_.find(episode_key(capture.description));
    if (found != episodes_.end()) found->second.stage = Stage::pending;
    out.push_back(std::move(capture));
  }
  queued_.clear();
  waiting_.store(false, std::memory_order_release);
}

void AlertReceiver::complete(IncidentCapture& capture, const store::Snapshot& snapshot) {
  model::IncidentDescription& incident = capture.description;
  // What of the wanted window the ring still holds: from its oldest frame on.
  // No sealed block yet (the daemon started less than a block ago): the open frames hold it all.
  const int64_t oldest = snapshot.stats().first_real_ns;
  const int64_t held_from =
      oldest == 0 ? incident.window_from_ns : std::max(incident.window_from_ns, oldest);
  set_detail(incident.details, kHeldFromKey, snapshot::format_rfc3339_ms(held_from));
  const std::lock_guard lock(mutex_);
  const auto found = episodes_.find(episode_key(incident));
  if (found == episodes_.end()) return;  // forgotten: more episodes than max_episodes since
  found->second.stage = Stage::written;
  if (!found->second.ends_at_ns) return;
  set_detail(incident.details, kStatusKey, "resolved");
  set_detail(incident.details, kEndsAtKey, snapshot::format_rfc3339_ms(*found->second.ends_at_ns));
}

size_t AlertReceiver::episodes() const {
  const std::lock_guard lock(mutex_);
  return episodes_.size();
}

}  // namespace flightrec::trigger
