#include "flightrec/trigger/collectors.h"

#include <catch2/catch.hpp>
#include <chrono>

#include "family_names.h"
#include "flightrec/model/incident_handoff.h"

using namespace flightrec;
using testing::all_start_with;
using testing::family_names;

namespace {

class DiscardingSink final : public model::IncidentSink {
 public:
  model::WriteOutcome write(const model::IncidentCapture&, store::Snapshot) override {
    return model::WriteOutcome::written;
  }
};

}  // namespace

TEST_CASE("shouldLetTheCaptureCollectorContributeOnlyItsOwnFamilies", "[trigger][collectors]") {
  DiscardingSink sink;
  trigger::IncidentWriter writer{sink};
  trigger::ManualTriggerGate manual_gate{std::chrono::seconds(5), std::chrono::seconds(60)};
  CHECK(all_start_with(family_names(trigger::CaptureCollector(writer, manual_gate)),
                       {"flightrec_incident", "flightrec_manual_trigger_"}));
}

TEST_CASE("shouldLetTheAlertsCollectorContributeOnlyItsOwnFamilies", "[trigger][collectors]") {
  trigger::AlertReceiver receiver{{}};
  CHECK(all_start_with(family_names(trigger::AlertsCollector(receiver)), {"flightrec_alert"}));
}
