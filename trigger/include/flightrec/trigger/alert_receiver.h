#pragma once
// Turns alert notifications (alert_payload.h) into incident requests for the capturer: filters
// them with incidents.alerts.match, keeps one incident per firing episode (fingerprint +
// startsAt) however often Alertmanager re-sends, retries or regroups, and records a resolved
// notification's end on its incident: while it waits for its window, or afterwards by a revision
// of the written file (alert_end.h). The window is centred on the alert's startsAt
// (docs/TRIGGERS.md, "Alertmanager and Grafana"). An episode whose incident could not be written
// (disk full, read-only store) is forgotten again, so that a re-send records it.
//
// A startsAt more than kMaxStartsAtLead ahead of this host's clock (a sender's clock set wrong, a
// made-up time) would keep the capture waiting, and its place in the writer's queue held, until
// that time: such an episode's window is centred on the notification's receipt instead (logged,
// rate-limited, naming the alert). So an alert's capture waits at most kMaxStartsAtLead + post
// (+ max_extension for one first seen resolved) after its receipt.
//
// receive() runs on HTTP threads and only queues; the capture itself happens on the recorder
// thread (CaptureRequests) and the writer thread, so the webhook is answered at once.
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "flightrec/common/enum_names.h"
#include "flightrec/common/limited_warning.h"
#include "flightrec/config/alert_matchers.h"
#include "flightrec/config/config.h"
#include "flightrec/config/units.h"
#include "flightrec/trigger/alert_payload.h"
#include "flightrec/trigger/capturer.h"
#include "flightrec/trigger/container_directory.h"

namespace flightrec::trigger {

// The rule name of alert incidents; the alert's name is in their series.
inline constexpr std::string_view kAlertRule = "alert";

// How far ahead of this host's clock a startsAt may be and still centre the window: beyond it,
// the window is centred on the receipt. Room for clocks a little apart, not for a wrong one.
inline constexpr std::chrono::minutes kMaxStartsAtLead{5};

// What became of one webhook request.
enum class NotificationResult : uint8_t { accepted, bad_request, too_large };
// The `result` label of flightrec_alert_notifications_total, in the enum's order.
inline constexpr EnumName<NotificationResult> kNotificationResultNames[] = {
    {NotificationResult::accepted, "accepted"},
    {NotificationResult::bad_request, "bad_request"},
    {NotificationResult::too_large, "too_large"}};
static_assert(names_are_distinct(kNotificationResultNames) &&
              rows_follow_values(kNotificationResultNames));
inline constexpr size_t kNotificationResultCount = std::size(kNotificationResultNames);
[[nodiscard]] constexpr std::string_view result_name(NotificationResult result) {
  return name_of(kNotificationResultNames, result);
}

// What became of one alert of a notification.
enum class AlertOutcome : uint8_t {
  captured,      // a new firing episode: an incident is on its way
  duplicate,     // an episode already captured (a repeat, a retry, the same alert in another group)
  resolved,      // the end of a captured episode, recorded on its incident before it was written
  end_recorded,  // the end of an episode, rewritten into its incident file written before
  end_too_late,  // the end of an episode whose incident is no longer stored: not recorded
  end_failed,    // the end could not be rewritten into the file (logged; the file is as it was)
  filtered,      // left out by incidents.alerts.match
  // Its labels name a container (pod, namespace, container, container_id, id) that has not run
  // on this node within the buffer (ContainerDirectory): another node's flightrec captures it.
  out_of_scope,
  // Not taken: every place the writer holds for alerts is taken (IncidentWriter::reserve).
  // Nothing is remembered of it, so the sender's re-send (the webhook answers 503) takes it.
  dropped,
  // Only in the webhook's answer: the end goes to the writer thread, which settles it as
  // end_recorded, end_too_late or end_failed; /metrics counts the alert then, under that outcome.
  end_queued,
};
// The outcomes' names in the webhook's answer and the `outcome` label, in the enum's order.
inline constexpr EnumName<AlertOutcome> kAlertOutcomeNames[] = {
    {AlertOutcome::captured, "captured"},         {AlertOutcome::duplicate, "duplicate"},
    {AlertOutcome::resolved, "resolved"},         {AlertOutcome::end_recorded, "end_recorded"},
    {AlertOutcome::end_too_late, "end_too_late"}, {AlertOutcome::end_failed, "end_failed"},
    {AlertOutcome::filtered, "filtered"},         {AlertOutcome::out_of_scope, "out_of_scope"},
    {AlertOutcome::dropped, "dropped"},           {AlertOutcome::end_queued, "end_queued"}};
static_assert(names_are_distinct(kAlertOutcomeNames) && rows_follow_values(kAlertOutcomeNames));
inline constexpr size_t kAlertOutcomeCount = std::size(kAlertOutcomeNames);
// The outcomes /metrics counts: every one but end_queued, which comes last.
inline constexpr size_t kSettledOutcomeCount = kAlertOutcomeCount - 1;
static_assert(static_cast<size_t>(AlertOutcome::end_queued) == kSettledOutcomeCount);
[[nodiscard]] constexpr std::string_view outcome_name(AlertOutcome outcome) {
  return name_of(kAlertOutcomeNames, outcome);
}

struct AlertReceiverOptions {
  std::vector<config::AlertMatcherSet> match;  // empty: every alert captures
  std::chrono::nanoseconds pre = std::chrono::minutes(1);
  std::chrono::nanoseconds post = std::chrono::minutes(1);
  // How far a resolved alert's end may extend its window past `post` (0: not at all).
  std::chrono::nanoseconds max_extension = std::chrono::minutes(5);
  // Episodes remembered for dedup, oldest forgotten first: far more than incidents.max_count
  // allows on disk, so an episode is remembered at least as long as its incident is kept.
  size_t max_episodes = 10000;
};

// Where the containers an alert's labels name ran (ContainerDirectory::scope_of); empty: nowhere
// known, every alert is unnamed.
using ScopeOfAlert = std::function<ContainerScope(const config::AlertLabels& labels)>;

// Whether an incident of this episode (episode_key) is already stored, e.g. from before a restart:
// then a notification for it is a duplicate rather than a new capture. Called with the receiver's
// lock held, only for episodes the receiver does not remember.
using StoredEpisode = std::function<bool(const std::string& key)>;

// Hands the revision that records an end on a written incident to the writer thread (normally
// IncidentWriter::submit_revision with a ring snapshot); false when it was not taken.
using RevisionHandoff = std::function<bool(model::IncidentRevision revision)>;
// Holds a place in the writer's queue for the capture or end of this alert (normally
// IncidentWriter::reserve; the alert as Prometheus would name it, for the log); false when none
// is left.
using PlaceReservation = std::function<bool(std::string_view alert)>;

class AlertReceiver final : public CaptureRequests {
 public:
  // Builds the matcher sets from incidents.alerts.match (checked at load: they parse).
  static AlertReceiverOptions options_from(const config::Config& config);
  explicit AlertReceiver(AlertReceiverOptions options, StoredEpisode stored = {})
      : options_(std::move(options)), stored_(std::move(stored)) {}

  // Before the first notification: where ends of written incidents go, handed over by take() on
  // the recorder thread. Without it they are counted end_too_late, as nothing can record them.
  void hand_revisions_to(RevisionHandoff handoff) { revision_handoff_ = std::move(handoff); }
  // Before the first notification: where a capture or an end gets its place before it is
  // answered, so that an alert is called captured (or end_queued) only when it will be written.
  // Without it (tests) every alert has a place.
  void reserve_places_with(PlaceReservation reserve) { reserve_ = std::move(reserve); }
  // Before the first notification: where the containers alerts name ran. Without it (the
  // container tier off) alerts naming containers are decided by incidents.alerts.match alone.
  void scope_with(ScopeOfAlert scope) { scope_ = std::move(scope); }
  // Any thread (a configuration reload): new filters, windows and extension bound for the
  // notifications from now on; episodes already remembered stay (max_episodes is kept).
  void set_options(AlertReceiverOptions options);

  // Any thread: one outcome per alert, in order. An alert left `dropped` is not remembered, nor
  // one `captured` once the writer has told that its incident failed to be written.
  std::vector<AlertOutcome> receive(const AlertNotification& notification);

  // Any thread, at shutdown: from now on every alert is `dropped` (answered 503, so that the
  // sender sends it again to the next run), as nothing would capture it. What was taken before
  // stays queued for the capturer's last take (IncidentCapturer::finish_at_shutdown).
  void close();

  [[nodiscard]] bool waiting() const noexcept override {
    return waiting_.load(std::memory_order_acquire);
  }
  void take(std::vector<model::IncidentCapture>& out) override;
  void complete(model::IncidentCapture& capture, const store::Snapshot& snapshot) override;

  [[nodiscard]] uint64_t outcomes(AlertOutcome outcome) const noexcept {
    return outcome_counts_.at(static_cast<size_t>(outcome)).load(std::memory_order_relaxed);
  }
  [[nodiscard]] size_t episodes() const;

  // Any thread (the webhook handler), for /metrics.
  void count_notification(AlertSource source, NotificationResult result) noexcept {
    notification_counts_.at(notification_slot(source, result))
        .fetch_add(1, std::memory_order_relaxed);
  }
  [[nodiscard]] uint64_t notifications(AlertSource source,
                                       NotificationResult result) const noexcept {
    return notification_counts_.at(notification_slot(source, result))
        .load(std::memory_order_relaxed);
  }

 private:
  enum class Stage : uint8_t { waiting, pending, written };
  struct Episode {
    Stage stage = Stage::waiting;
    std::optional<int64_t> ends_at_ns;
  };
  // An end for a written incident, waiting for take() to hand it to the writer.
  struct LateEnd {
    std::string key;
    int64_t ends_at_ns = 0;
    std::chrono::nanoseconds max_extension{};  // as configured when the end arrived
    bool reserved = false;                     // its place in the writer's queue is held
  };

  // With mutex_ held.
  AlertOutcome receive_one(const AlertNotification& notification, const Alert& alert,
                           int64_t received_ns);
  AlertOutcome end_written(const std::string& key, Episode& episode, const Alert& alert);
  // Whether the alert's capture or end got a place in the writer's queue.
  bool place_for(const Alert& alert) const;
  // Without mutex_ held.
  void hand_over(const LateEnd& end);
  void settle(const std::string& key, model::RevisionOutcome outcome);
  void count(AlertOutcome outcome) noexcept {
    outcome_counts_.at(static_cast<size_t>(outcome)).fetch_add(1, std::memory_order_relaxed);
  }
  void remember(const std::string& key, Episode episode);
  // Writer thread: the episode's incident could not be written. Forgotten like a dropped alert,
  // so that the sender's re-send captures it once the store can be written again.
  void forget(const std::string& key);
  // `centre_ns`: the alert's startsAt, or its receipt when that is too far ahead.
  [[nodiscard]] model::IncidentCapture capture_of(const AlertNotification& notification,
                                                  const Alert& alert, int64_t centre_ns) const;

  static size_t notification_slot(AlertSource source, NotificationResult result) noexcept {
    return static_cast<size_t>(source) * kNotificationResultCount + static_cast<size_t>(result);
  }

  AlertReceiverOptions options_;  // guarded by mutex_
  StoredEpisode stored_;
  RevisionHandoff revision_handoff_;
  PlaceReservation reserve_;
  ScopeOfAlert scope_;
  mutable std::mutex mutex_;
  std::map<std::string, Episode> episodes_;     // by episode_key
  std::deque<std::string> episode_order_;       // oldest first, for the bound
  std::vector<model::IncidentCapture> queued_;  // for the recorder thread
  std::vector<LateEnd> late_ends_;              // for the recorder thread, to hand to the writer
  std::atomic<bool> waiting_{false};
  bool closed_ = false;  // guarded by mutex_
  log::LimitedWarning ahead_warning_{
      "alert startsAt more than " + config::format_duration(kMaxStartsAtLead) +
      " ahead of this host's clock: its window is centred on the notification's receipt"};
  std::array<std::atomic<uint64_t>, kAlertOutcomeCount> outcome_counts_{};
  std::array<std::atomic<uint64_t>, 2 * kNotificationResultCount> notification_counts_{};
};

// "grafana/<fingerprint>@<startsAt ns>": one firing episode of one alert.
[[nodiscard]] std::string episode_key(AlertSource source, std::string_view fingerprint,
                                      int64_t starts_at_ns);
// The episode an alert incident captured, from its description (kind alert: its fired_at, or the
// startsAt sent when that was too far ahead); empty for any other incident.
[[nodiscard]] std::string episode_key(const model::IncidentDescription& incident);

}  // namespace flightrec::trigger
