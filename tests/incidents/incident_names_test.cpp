#include <catch2/catch.hpp>
#include <string_view>

#include "flightrec/incidents/incident.h"

using flightrec::incidents::cause_name;
using flightrec::incidents::FailureCause;
using flightrec::incidents::IncidentStatus;
using flightrec::incidents::kFailureCauseCount;
using flightrec::incidents::status_name;

// The names are the `status` and `cause` of /incidents' JSON and the `cause` label: a renamed row
// breaks dashboards and scripts, so each is pinned here.
TEST_CASE("each incident status and failure cause has its one name", "[incident]") {
  CHECK(status_name(IncidentStatus::written) == "written");
  CHECK(status_name(IncidentStatus::failed) == "failed");
  CHECK(status_name(IncidentStatus::verifying) == "verifying");
  CHECK(status_name(IncidentStatus::unreadable) == "unreadable");
  CHECK(cause_name(FailureCause::no_space) == "no_space");
  CHECK(cause_name(FailureCause::read_only) == "read_only");
  CHECK(cause_name(FailureCause::permission) == "permission");
  CHECK(cause_name(FailureCause::other) == "other");
  CHECK(kFailureCauseCount == 4);
}
