#pragma once
// Builds the fast-tier system sources the configuration enables, in a fixed order: stat,
// cgroup_cpu, meminfo, loadavg, pressure, vmstat, diskstats, netdev. Each is found by its name
// under `sources:` in the configuration.
#include <chrono>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "flightrec/config/config.h"
#include "flightrec/sampler/proc_root.h"
#include "flightrec/sampler/source.h"

namespace flightrec::sampler {

struct OpenedSources {
  std::vector<std::unique_ptr<Source>> sources;
  std::vector<std::chrono::nanoseconds> rates;  // each source's configured read rate
  // Enabled sources this host does not have, one "name: reason" each, e.g.
  // "pressure: /proc/pressure not present".
  std::vector<std::string> skipped;
};

// The names of every system source the sampler can build, in opening order.
[[nodiscard]] std::vector<std::string_view> system_source_names();

// Throws std::runtime_error "<name>: <what failed>" when an enabled source that every Linux host
// has cannot be set up (its file is unreadable, a filter regex is invalid).
OpenedSources open_system_sources(const ProcRoot& root, const config::Config::Sources& config);

}  // namespace flightrec::sampler
