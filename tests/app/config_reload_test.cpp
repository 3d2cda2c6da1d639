#include "flightrec/app/config_reload.h"

#include <catch2/catch.hpp>

#include "flightrec/config/loader.h"

using flightrec::app::plan_reload;
using flightrec::config::Config;

namespace {

Config load(const char* yaml) {
  auto result = flightrec::config::load_from_string(yaml, "flightrec.yaml");
  INFO((result.errors.empty() ? "" : result.errors.front()));
  REQUIRE(result.ok());
  return *result.config;
}

}  // namespace

TEST_CASE("aReloadAppliesLiveKeysAndKeepsRestartOnlyOnes", "[reload]") {
  const Config running;
  const Config loaded = load(R"(
sampler: {rate: 8ms}
sources: {vmstat: {rate: 40ms}}
incidents: {max_count: 7, manual_interval: 5s}
export: {top_processes: 3}
triggers:
  - {name: hot, signal: 'cpu_busy_ratio{cpu="total"}', op: ">", value: 0.9}
)");
  const auto plan = plan_reload(running, loaded);
  CHECK(plan.applied == std::vector<std::string>{"export.top_processes", "incidents.max_count",
                                                 "incidents.manual_interval", "triggers"});
  CHECK(plan.kept == std::vector<std::string>{"sampler.rate", "sources.vmstat.rate"});
  CHECK(plan.effective.incidents.max_count == 7);
  CHECK(plan.effective.export_.top_processes == 3);
  REQUIRE(plan.effective.triggers.size() == 1);
  CHECK(plan.effective.sampler.rate == running.sampler.rate);
  CHECK(plan.effective.sources == running.sources);
}

TEST_CASE("aRuleThatOnlyMovedInTheFileIsNoChange", "[reload]") {
  const Config before =
      load("triggers:\n  - {name: m, signal: memory_used_bytes, op: '>', value: 1}\n");
  const Config after = load(
      "\n\n# moved down\ntriggers:\n  - {name: m, signal: memory_used_bytes, op: '>', value: 1}\n");
  REQUIRE(before.triggers.front().line != after.triggers.front().line);
  const auto plan = plan_reload(before, after);
  CHECK(plan.applied.empty());
  CHECK(plan.kept.empty());
}

TEST_CASE("theAccessRolesChangeLiveTheListenAddressAtARestart", "[reload]") {
  const Config running;
  const Config loaded = load(R"(
web:
  listen_address: 0.0.0.0:9717
  roles: {alice: [metrics, actions]}
  anonymous_roles: [metrics]
  open_health: false
)");
  const auto plan = plan_reload(running, loaded);
  CHECK(plan.applied ==
        std::vector<std::string>{"web.roles", "web.anonymous_roles", "web.open_health"});
  CHECK(plan.kept == std::vector<std::string>{"web.listen_address"});
  CHECK(plan.effective.web.roles == loaded.web.roles);
  CHECK(plan.effective.web.anonymous_roles == loaded.web.anonymous_roles);
  CHECK_FALSE(plan.effective.web.open_health);
  CHECK(plan.effective.web.listen_address == running.web.listen_address);
}

TEST_CASE("theAlertSettingsChangeLive", "[reload]") {
  const Config running;
  const Config loaded = load(R"(
incidents:
  alerts: {match: ['{severity="critical"}'], pre: 10s, post: 20s, max_extension: 0s}
)");
  const auto plan = plan_reload(running, loaded);
  CHECK(plan.applied == std::vector<std::string>{"incidents.alerts.match", "incidents.alerts.pre",
                                                 "incidents.alerts.post",
                                                 "incidents.alerts.max_extension"});
  CHECK(plan.kept.empty());
  CHECK(plan.effective.incidents.alerts == loaded.incidents.alerts);
}

TEST_CASE("theExportedContainersChangeLiveTheContainerTierAtARestart", "[reload]") {
  const Config running;
  const Config loaded = load("export: {top_containers: 5}\ncontainers: {rate: 2s}\n");
  const auto plan = plan_reload(running, loaded);
  CHECK(plan.applied == std::vector<std::string>{"export.top_containers"});
  CHECK(plan.kept == std::vector<std::string>{"containers.rate"});
  CHECK(plan.effective.export_.top_containers == 5);
  CHECK(plan.effective.containers.rate == running.containers.rate);
}
