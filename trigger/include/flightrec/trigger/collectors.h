#pragma once
// The trigger's families in /metrics, listed in docs/METRICS.md; the incident directory's own are
// incidents/'s (IncidentsCollector). Every referenced object must outlive its collector.
#include "flightrec/exposition/collectable.h"
#include "flightrec/trigger/alert_receiver.h"
#include "flightrec/trigger/manual_gate.h"
#include "flightrec/trigger/writer.h"

namespace flightrec::trigger {

// Incidents the writer dropped because it was behind, and POST /-/trigger requests by outcome.
class CaptureCollector final : public exposition::Collectable {
 public:
  CaptureCollector(const IncidentWriter& writer, const ManualTriggerGate& manual_gate)
      : writer_(writer), manual_gate_(manual_gate) {}
  void collect(exposition::Families& out) const override;

 private:
  const IncidentWriter& writer_;
  const ManualTriggerGate& manual_gate_;
};

// Alert webhook notifications (POST /-/trigger/alertmanager, /-/trigger/grafana) and what became
// of their alerts.
class AlertsCollector final : public exposition::Collectable {
 public:
  explicit AlertsCollector(const AlertReceiver& receiver) : receiver_(receiver) {}
  void collect(exposition::Families& out) const override;

 private:
  const AlertReceiver& receiver_;
};

}  // namespace flightrec::trigger
