#include "flightrec/incidents/incidents_collector.h"

#include <catch2/catch.hpp>

#include "family_names.h"
#include "flightrec/incidents/incident_store.h"
#include "temp_dir.h"

using namespace flightrec;
using testing::all_start_with;
using testing::family_names;

TEST_CASE("shouldLetTheIncidentsCollectorContributeOnlyItsOwnFamilies", "[incidents][collectors]") {
  testing::TempDir dir{"flightrec-collectors"};
  incidents::IncidentStore store{{.dir = dir.path()}};
  CHECK(all_start_with(family_names(incidents::IncidentsCollector(store)), {"flightrec_incident"}));
}
