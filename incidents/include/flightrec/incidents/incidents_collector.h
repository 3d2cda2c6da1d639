#pragma once
// The incident directory's families in /metrics: incidents by rule and outcome, write failures by
// cause, quarantine, the start-up scan, retention and the newest incidents. Listed in
// docs/METRICS.md.
#include "flightrec/exposition/collectable.h"
#include "flightrec/incidents/incident_store.h"

namespace flightrec::incidents {

class IncidentsCollector final : public exposition::Collectable {
 public:
  // `store` must outlive the collector.
  explicit IncidentsCollector(const IncidentStore& store) : store_(store) {}
  void collect(exposition::Families& out) const override;

 private:
  const IncidentStore& store_;
};

}  // namespace flightrec::incidents
