#include "flightrec/app/rule_signals.h"

#include <catch2/catch.hpp>

#include "flightrec/config/loader.h"

using namespace flightrec;

namespace {

config::Config config_with(const std::string& triggers) {
  auto loaded = config::load_from_string("triggers:\n" + triggers, "f.yaml");
  INFO((loaded.errors.empty() ? std::string() : loaded.errors.front()));
  REQUIRE(loaded.ok());
  return *loaded.config;
}

sampler::Schema schema_of(std::vector<std::string> names) {
  sampler::Schema schema;
  for (auto& name : names) {
    sampler::SeriesDesc desc;
    desc.name = std::move(name);
    schema.push_back(std::move(desc));
  }
  return schema;
}

}  // namespace

TEST_CASE("check-config names a misspelt rule signal with the one meant", "[rule_signals]") {
  const auto config = config_with(
      "  - {name: ok, signal: memory_available_bytes, op: '<', value: 1}\n"
      "  - {name: hot, signal: cpu_bussy_ratio, op: '>', value: 0.9}\n"
      "  - {name: low, signal: memory_avialable_bytes, op: '<', value: 1}\n"
      "  - {name: odd, signal: entropy_bits, op: '<', value: 1}\n");
  const auto errors =
      app::unknown_rule_signals(config, schema_of({"memory_available_bytes"}), "f.yaml");
  REQUIRE(errors.size() == 3);
  CHECK(errors[0] ==
        "f.yaml:3: triggers[1].signal: unknown signal \"cpu_bussy_ratio\" (not a signal or series "
        "on this host; did you mean \"cpu_busy_ratio\"?)");
  CHECK(errors[1] ==
        "f.yaml:4: triggers[2].signal: unknown signal \"memory_avialable_bytes\" (not a signal or "
        "series on this host; did you mean \"memory_available_bytes\"?)");
  CHECK(errors[2] ==
        "f.yaml:5: triggers[3].signal: unknown signal \"entropy_bits\" (not a signal or series on "
        "this host; see docs/TRIGGERS.md)");
}

TEST_CASE(
    "check-config accepts every derived signal, whether this host has it or not, and "
    "leaves labels and container rules alone",
    "[rule_signals]") {
  // No PSI and no disks here: the daemon's host may have them.
  const auto config = config_with(
      "  - {name: psi, signal: 'pressure_stall_ratio{resource=\"io\",kind=\"some\"}', op: '>', "
      "value: 0.5}\n"
      "  - {name: sdz, signal: 'disk_read_bytes_per_second{device=\"sdz\"}', op: '>', value: 1}\n"
      "  - {name: pod, signal: container_memory_fill, op: '>', value: 0.9}\n");
  CHECK(app::unknown_rule_signals(config, schema_of({}), "f.yaml").empty());
}
