#include <catch2/catch.hpp>
#include <string_view>

#include "flightrec/trigger/alert_payload.h"
#include "flightrec/trigger/alert_receiver.h"
#include "flightrec/trigger/manual_gate.h"

using namespace flightrec::trigger;

// Each name is a label value on /metrics, a key of the webhook's answer or a route: a renamed row
// breaks dashboards and senders, so every one is pinned here.
TEST_CASE("the trigger's enums are named from their tables", "[names]") {
  CHECK(source_name(AlertSource::alertmanager) == "alertmanager");
  CHECK(source_name(AlertSource::grafana) == "grafana");

  CHECK(result_name(NotificationResult::accepted) == "accepted");
  CHECK(result_name(NotificationResult::bad_request) == "bad_request");
  CHECK(result_name(NotificationResult::too_large) == "too_large");
  CHECK(kNotificationResultCount == 3);

  CHECK(outcome_name(AlertOutcome::captured) == "captured");
  CHECK(outcome_name(AlertOutcome::duplicate) == "duplicate");
  CHECK(outcome_name(AlertOutcome::resolved) == "resolved");
  CHECK(outcome_name(AlertOutcome::end_recorded) == "end_recorded");
  CHECK(outcome_name(AlertOutcome::end_too_late) == "end_too_late");
  CHECK(outcome_name(AlertOutcome::end_failed) == "end_failed");
  CHECK(outcome_name(AlertOutcome::filtered) == "filtered");
  CHECK(outcome_name(AlertOutcome::out_of_scope) == "out_of_scope");
  CHECK(outcome_name(AlertOutcome::dropped) == "dropped");
  CHECK(outcome_name(AlertOutcome::end_queued) == "end_queued");
  CHECK(kAlertOutcomeCount == 10);
  CHECK(kSettledOutcomeCount == 9);

  CHECK(admission_name(ManualAdmission::accepted) == "accepted");
  CHECK(admission_name(ManualAdmission::coalesced) == "coalesced");
  CHECK(admission_name(ManualAdmission::refused) == "refused");
}
