// The container an incident names, for the listings: Kubernetes names joined, else the id, else
// a container rule's cgroup; nothing for an incident about no container.
#include "flightrec/model/container_details.h"

#include <catch2/catch.hpp>

using flightrec::model::container_name;
using flightrec::model::IncidentDescription;
using flightrec::model::IncidentKind;

TEST_CASE("A container rule's incident names its container", "[container]") {
  IncidentDescription incident{.kind = IncidentKind::container};
  incident.details = {{"container.id", "abc"}, {"container.cgroup", "/kubepods/pod1/abc"}};
  CHECK(container_name(incident) == "abc");
  incident.details.emplace_back("container.namespace", "prod");
  incident.details.emplace_back("container.pod", "web-1");
  incident.details.emplace_back("container.container", "nginx");
  CHECK(container_name(incident) == "prod/web-1/nginx");
  incident.details = {{"container.cgroup", "/system.slice/nginx.service"}};
  CHECK(container_name(incident) == "/system.slice/nginx.service");
}

TEST_CASE("An OOM incident names its victim's container, if any", "[container]") {
  IncidentDescription incident{.kind = IncidentKind::oom_kill};
  incident.details = {{"oom.victim_pid", "468"}, {"oom.victim_cgroup", "/user.slice"}};
  CHECK(container_name(incident).empty());
  incident.details.emplace_back("oom.container_id", "abc");
  CHECK(container_name(incident) == "abc");
  incident.details.emplace_back("oom.pod", "checkout-7f9c");
  CHECK(container_name(incident) == "checkout-7f9c");
  // Another kind's container.* keys are not an OOM victim's.
  IncidentDescription rule{.kind = IncidentKind::rule};
  CHECK(container_name(rule).empty());
}
