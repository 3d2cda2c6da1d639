// The `containers:` section: its values reach Config, and each kind of bad value is refused
// with the key, the value and what is allowed.
#include <catch2/catch.hpp>

#include "flightrec/config/loader.h"
#include "only_error.h"

using flightrec::config::load_from_string;
using flightrec::config::LoadResult;
using flightrec::config::testing::only_error;
using namespace std::chrono_literals;

TEST_CASE("a containers section sets the tiers, the matching, the names and the export",
          "[containers]") {
  LoadResult result = load_from_string(
      "containers:\n"
      "  rate: 250ms\n"
      "  fast_rate: 5ms\n"
      "  fast_max: 4\n"
      "  discovery_interval: 2s\n"
      "  max: 50\n"
      "  match:\n"
      "    runtimes: false\n"
      "    systemd_services: true\n"
      "    path_regex: '^/machine\\.slice/'\n"
      "  names:\n"
      "    root: /host\n"
      "    containerd_state: /run/k3s/containerd\n"
      "    grace_period: 0s\n"
      "export:\n"
      "  top_containers: 5\n",
      "flightrec.yaml");
  INFO("errors: " << (result.errors.empty() ? "" : result.errors.front()));
  REQUIRE(result.ok());
  const auto& containers = result.config->containers;
  CHECK(containers.enabled);
  CHECK(containers.rate == 250ms);
  CHECK(containers.fast_rate == 5ms);
  CHECK(containers.fast_max == 4);
  CHECK(containers.discovery_interval == 2s);
  CHECK(containers.max == 50);
  CHECK_FALSE(containers.match.runtimes);
  CHECK(containers.match.kubepods);
  CHECK(containers.match.systemd_services);
  CHECK(containers.match.path_regex == "^/machine\\.slice/");
  CHECK(containers.names.root == "/host");
  CHECK(containers.names.containerd_state == "/run/k3s/containerd");
  CHECK(containers.names.docker_root == "/var/lib/docker");
  CHECK(containers.names.grace_period == 0s);
  CHECK(result.config->export_.top_containers == 5);
}

TEST_CASE("the fast tier may not be slower than the slow one", "[containers][errors]") {
  CHECK(only_error("containers:\n  rate: 10ms\n  fast_rate: 20ms\n") ==
        "flightrec.yaml:2: containers.rate: 10ms must be >= containers.fast_rate (20ms)");
  CHECK(only_error("containers:\n  fast_rate: 2s\n") ==
        "flightrec.yaml:2: containers.rate: 1s must be >= containers.fast_rate (2s)");
}

TEST_CASE("bad container values name the key and what is allowed", "[containers][errors]") {
  CHECK(only_error("containers:\n  fast_max: 1000\n") ==
        "flightrec.yaml:2: containers.fast_max: \"1000\" is out of range (allowed: 0..256)");
  CHECK(only_error("containers:\n  max: 0\n") ==
        "flightrec.yaml:2: containers.max: \"0\" is out of range (allowed: 1..65536)");
  CHECK(only_error("containers:\n  fast_rate: 500us\n") ==
        "flightrec.yaml:2: containers.fast_rate: \"500us\" is out of range (allowed: 1ms..10s)");
  CHECK(only_error("containers:\n  discovery_interval: soon\n") ==
        "flightrec.yaml:2: containers.discovery_interval: \"soon\" is not a duration (examples: "
        "500us, 1ms, 2s)");
  CHECK(only_error("export:\n  top_containers: -1\n") ==
        "flightrec.yaml:2: export.top_containers: \"-1\" is not a whole number (allowed: "
        "0..10000)");
  CHECK_THAT(only_error("containers:\n  match:\n    path_regex: '(qemu'\n"),
             Catch::StartsWith("flightrec.yaml:3: containers.match.path_regex: \"(qemu\" is not a "
                               "valid regex ("));
  CHECK_THAT(only_error("containers:\n  names:\n    root: ''\n"),
             Catch::StartsWith("flightrec.yaml:3: containers.names.root: an empty path is not "
                               "allowed"));
  CHECK(only_error("containers:\n  match:\n    kubepods: yes\n") ==
        "flightrec.yaml:3: containers.match.kubepods: \"yes\" is not a boolean (allowed: true, "
        "false)");
}

TEST_CASE("a misspelt container key gets a did-you-mean", "[containers][errors]") {
  CHECK(only_error("containers:\n  fast_rte: 5ms\n") ==
        "flightrec.yaml:2: containers.fast_rte: unknown key; did you mean "
        "\"containers.fast_rate\"?");
  CHECK(only_error("containers:\n  match:\n    regex: x\n") ==
        "flightrec.yaml:3: containers.match.regex: unknown key (known here: runtimes, kubepods, "
        "systemd_services, path_regex)");
}
